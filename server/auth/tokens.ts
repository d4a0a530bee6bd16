// Signed session tokens (jose, HS256) carrying the session id.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

let secret: Uint8Array | undefined;

/** JWT_SECRET from env; else a random secret kept in {dataDir}/jwt-secret. */
export function initSecret(dataDir: string): void {
  if (process.env.JWT_SECRET) { secret = new TextEncoder().encode(process.env.JWT_SECRET); return; }
  const file = path.join(dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  secret = new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

function key(): Uint8Array {
  if (!secret) secret = new TextEncoder().encode(process.env.JWT_SECRET ?? crypto.randomBytes(48).toString('base64url'));
  return secret;
}

/** A secret of its own for `label` derived from the server's secret (the same in every process sharing it), e.g. the
 *  Web Push VAPID key: nothing more to store or rotate apart. */
export function derivedSecret(label: string): Buffer {
  return crypto.createHmac('sha256', Buffer.from(key())).update(`rastro:${label}`).digest();
}

export const SESSION_HOURS = 12;

export async function signSession(sid: number, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setIssuer('rastro')
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key());
}

/** Answers the session id, or null when the token is invalid or expired. */
export async function verifySession(token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: 'rastro', algorithms: ['HS256'] });
    return typeof payload.sid === 'number' ? payload.sid : null;
  } catch {
    return null;
  }
}
