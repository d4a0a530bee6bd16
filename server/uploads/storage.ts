// Where uploaded files live: a folder on local disk (default ./data/uploads) or any S3-compatible store.
// Keys are made here from random bytes (newKey); a key that does not have that shape is refused before any path
// or object name is built, so nothing a client sends ever becomes part of a path.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, mime: string): Promise<void>;
  /** null when the object does not exist. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{32}(_500)?\.[a-z0-9]{1,5}$/;

/** A fresh random key with the file's (detected, never the client's) extension. */
export function newKey(ext: string): string {
  return `${crypto.randomBytes(16).toString('hex')}.${ext}`;
}
export const thumbKey = (key: string) => key.replace(/\.[a-z0-9]+$/, '_500.png');
export const isKey = (key: unknown): key is string => typeof key === 'string' && KEY.test(key);

function checked(key: string): string {
  if (!isKey(key)) throw new Error(`chave de armazenamento inválida: ${JSON.stringify(key).slice(0, 80)}`);
  return key;
}

export function localStorage(dir: string): Storage {
  const root = path.resolve(dir);
  // Two hex characters of the key as a sub-folder keep directories small.
  const file = (key: string) => path.join(root, checked(key).slice(0, 2), key);
  return {
    kind: 'local',
    async put(key, body) {
      const f = file(key);
      await fs.mkdir(path.dirname(f), { recursive: true });
      // wx: never overwrite (a key collision is a bug, not a replace)
      await fs.writeFile(f, body, { flag: 'wx', mode: 0o640 });
    },
    async get(key) {
      try { return await fs.readFile(file(key)); } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async delete(key) {
      await fs.rm(file(key), { force: true });
    },
  };
}

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  prefix?: string;
  forcePathStyle?: boolean;
}

export function s3Storage(o: S3Options): Storage {
  const client = new S3Client({
    region: o.region ?? 'us-east-1',
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle ?? !!o.endpoint,
    credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
    // Plain bodies with a Content-Length: what every S3-compatible store accepts (no aws-chunked trailers).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const name = (key: string) => `${o.prefix ?? ''}${checked(key)}`;
  return {
    kind: 's3',
    async put(key, body, mime) {
      await client.send(new PutObjectCommand({ Bucket: o.bucket, Key: name(key), Body: body, ContentType: mime }));
    },
    async get(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: name(key) }));
        return r.Body ? Buffer.from(await r.Body.transformToByteArray()) : null;
      } catch (e) {
        if (e instanceof NoSuchKey || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw e;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: name(key) }));
    },
  };
}

/** S3 when S3_BUCKET is set (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PREFIX,
 *  S3_FORCE_PATH_STYLE), otherwise UPLOAD_DIR or {dataDir}/uploads on local disk. */
export function storageFromEnv(dataDir: string, env: NodeJS.ProcessEnv = process.env): Storage {
  if (env.S3_BUCKET) {
    return s3Storage({
      bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION || undefined,
      accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY, prefix: env.S3_PREFIX,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : undefined,
    });
  }
  return localStorage(env.UPLOAD_DIR || path.join(dataDir, 'uploads'));
}
