// Web Push with VAPID (RFC 8030 / 8291 / 8292) through the package web-push: it encrypts the message for the
// browser's keys and signs the VAPID JWT; the request is sent here with fetch (http for a local double in tests,
// https in production). The VAPID key comes from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY or is derived from the server's
// secret (the same in every process). Endpoints are only sent to the push services' hosts (WEB_PUSH_HOSTS): a
// subscription names a URL the server will POST to, so any other host is refused (no requests to internal services).
import crypto from 'node:crypto';
import webpush from 'web-push';
import { derivedSecret } from '../../../server/auth/tokens.ts';

export interface Subscription { endpoint: string; keys: { p256dh: string; auth: string } }
export interface PushMessage { titulo: string; mensagem: string; url?: string | null; topico?: string | null }
export interface PushResult { status: number; gone: boolean; error?: string }

/** Hosts of the browsers' push services (Chrome/Edge via FCM, Firefox, Safari, Windows). */
const DEFAULT_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com', '*.push.apple.com'];
export const pushHosts = () => (process.env.WEB_PUSH_HOSTS ? process.env.WEB_PUSH_HOSTS.split(',').map((h) => h.trim()).filter(Boolean) : DEFAULT_HOSTS);
const allowHttp = () => process.env.WEB_PUSH_ALLOW_HTTP === '1';

/** The endpoint a browser gives, checked: a push service's https URL (http only when WEB_PUSH_ALLOW_HTTP=1, tests). */
export function checkEndpoint(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 1000) return null;
  let u: URL;
  try { u = new URL(raw); } catch { return null; }
  if (!(u.protocol === 'https:' || (allowHttp() && u.protocol === 'http:')) || u.username || u.password) return null;
  const host = u.hostname.toLowerCase();
  const ok = pushHosts().some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : host === h));
  return ok ? u.toString() : null;
}

let keys: { publicKey: string; privateKey: string } | undefined;
/** The VAPID key pair (base64url, uncompressed P-256 public key). */
export function vapidKeys(): { publicKey: string; privateKey: string } {
  if (keys) return keys;
  if (process.env.VAPID_PUBLIC_KEY && process.env.VAPID_PRIVATE_KEY) {
    keys = { publicKey: process.env.VAPID_PUBLIC_KEY, privateKey: process.env.VAPID_PRIVATE_KEY };
  } else {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(derivedSecret('vapid'));
    keys = { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: ecdh.getPrivateKey().toString('base64url') };
  }
  return keys;
}

export const vapidSubject = () => process.env.VAPID_SUBJECT ?? 'mailto:suporte@rastro.local';
const TIMEOUT_MS = () => Number(process.env.WEB_PUSH_TIMEOUT_MS ?? 10_000);

/** Sends one message to one browser. 404/410 from the push service: the subscription is gone (to be removed). */
export async function sendPush(sub: Subscription, msg: PushMessage): Promise<PushResult> {
  if (!checkEndpoint(sub.endpoint)) return { status: 0, gone: true, error: 'Endereço de push não permitido' };
  const { publicKey, privateKey } = vapidKeys();
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(sub, JSON.stringify({ titulo: msg.titulo, mensagem: msg.mensagem, url: msg.url ?? null, topico: msg.topico ?? null }), {
      vapidDetails: { subject: vapidSubject(), publicKey, privateKey }, TTL: 24 * 3600, contentEncoding: 'aes128gcm', urgency: 'normal',
    });
  } catch (e) {
    // keys a browser could not have made: the subscription is useless
    return { status: 0, gone: true, error: (e as Error).message };
  }
  try {
    const res = await fetch(details.endpoint, { method: details.method, headers: details.headers as Record<string, string>, body: details.body as unknown as BodyInit, signal: AbortSignal.timeout(TIMEOUT_MS()), redirect: 'error' });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, gone: res.status === 404 || res.status === 410, error: res.ok ? undefined : `HTTP ${res.status}` };
  } catch (e) {
    return { status: 0, gone: false, error: (e as Error).name === 'TimeoutError' ? 'Tempo esgotado' : (e as Error).message };
  }
}
