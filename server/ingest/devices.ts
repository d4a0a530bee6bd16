// serial → registered device (equipamento + current equipamento_ativo link), with a small TTL cache.
import type pg from 'pg';
import type { DeviceInfo } from './types.ts';

const LOOKUP = `
SELECT e.id, e.serial, e.empresa_id, e.modelo, e.tecnologia, l.ativo_id
  FROM equipamento e
  LEFT JOIN LATERAL (
    SELECT ea.ativo_id FROM equipamento_ativo ea
     WHERE ea.serial = e.serial AND ea.empresa_id = e.empresa_id
       AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())
     ORDER BY ea.data_inicio DESC LIMIT 1) l ON true
 WHERE e.serial = ANY($1::text[]) AND e.ativado
 ORDER BY e.id`;

interface Entry { info: DeviceInfo | null; at: number }

export class DeviceDirectory {
  private cache = new Map<string, Entry>();
  private lastSeenWrite = new Map<string, number>();

  constructor(private pool: pg.Pool, private ttlMs = 30_000, private negativeTtlMs = 10_000) {}

  /** Resolves many serials with at most one query; null = unknown or deactivated. */
  async resolve(serials: Iterable<string>): Promise<Map<string, DeviceInfo | null>> {
    const now = Date.now();
    const out = new Map<string, DeviceInfo | null>();
    const missing: string[] = [];
    for (const s of serials) {
      if (out.has(s)) continue;
      const e = this.cache.get(s);
      if (e && now - e.at < (e.info ? this.ttlMs : this.negativeTtlMs)) out.set(s, e.info);
      else { out.set(s, null); missing.push(s); }
    }
    if (missing.length) {
      const { rows } = await this.pool.query(LOOKUP, [missing]);
      const found = new Map<string, DeviceInfo>();
      for (const r of rows) {
        // Same serial in two companies: the most recent row wins (ordered by id).
        found.set(r.serial, {
          equipamentoId: r.id, serial: r.serial, empresaId: r.empresa_id, ativoId: r.ativo_id ?? null,
          motoristaId: null, modelo: r.modelo ?? null, tecnologia: r.tecnologia ?? null,
        });
      }
      for (const s of missing) {
        const info = found.get(s) ?? null;
        this.cache.set(s, { info, at: now });
        out.set(s, info);
      }
    }
    return out;
  }

  get(serial: string): DeviceInfo | null | undefined {
    return this.cache.get(serial)?.info;
  }

  invalidate(serial?: string): void {
    if (serial === undefined) this.cache.clear();
    else this.cache.delete(serial);
  }

  /** True at most once per interval per device: throttles equipamento.ultima_comunicacao writes. */
  shouldTouch(serial: string, intervalMs = 60_000): boolean {
    const now = Date.now();
    const last = this.lastSeenWrite.get(serial) ?? 0;
    if (now - last < intervalMs) return false;
    this.lastSeenWrite.set(serial, now);
    return true;
  }
}
