// Device identity, first line of defence: per-company allowed source networks (empresa.redes_permitidas, one IP or
// CIDR a line). Anyone who knows a tracker's IMEI can send frames claiming it (the @Track and SV protocols carry no
// secret from the device; see README "Identidade dos equipamentos"); when the company lists the networks its devices
// use (e.g. the M2M carrier's private APN), a frame of its devices from any other address is dropped by the writer
// (not stored, not acknowledged) and logged. Empty: any network.
import { BlockList, isIP } from 'node:net';

export interface Redes { list: BlockList; entries: string[] }

const parsed = new Map<string, Redes | null>();

/** The text of the field → the networks (null: no restriction). Entries that are not an IP or a CIDR are skipped; a
 *  text with none valid is no restriction (the API's pattern refuses such texts). Parsed once per distinct text. */
export function parseRedes(text: string | null | undefined): Redes | null {
  if (!text || !text.trim()) return null;
  const hit = parsed.get(text);
  if (hit !== undefined) return hit;
  const list = new BlockList();
  const entries: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    if (!raw) continue;
    const [addr, bits] = raw.split('/');
    const v = isIP(addr);
    if (!v) continue;
    const type = v === 4 ? 'ipv4' : 'ipv6';
    const max = v === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!(prefix >= 0 && prefix <= max)) continue;
    try { list.addSubnet(addr, prefix, type); entries.push(`${addr}/${prefix}`); } catch { /* skipped */ }
  }
  const out = entries.length ? { list, entries } : null;
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(text, out);
  return out;
}

/** A socket's remote address as the lists compare it: '::ffff:10.1.2.3' (IPv4 on a dual-stack socket) → '10.1.2.3'. */
export function plainAddress(a: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return m ? m[1] : a;
}

/** Whether a frame from `address` may be stored for a device of a company with these networks. No list: yes;
 *  a list but no address known: no. */
export function networkAllowed(redes: Redes | null | undefined, address: string | undefined): boolean {
  if (!redes) return true;
  if (!address) return false;
  const a = plainAddress(address);
  const v = isIP(a);
  if (!v) return false;
  return redes.list.check(a, v === 4 ? 'ipv4' : 'ipv6');
}
