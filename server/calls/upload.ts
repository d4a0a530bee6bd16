// Uploads (spec section 7): POST /api/upload/single/{company}, /api/upload/many/{company} (multipart, field
// `file`), /api/upload/delete { filename, company }, and GET /api/upload/file/{filename} to read one back.
// Content is checked by its magic bytes (never the name or the client's type); images are stored as PNG with a
// 500 px thumbnail; every file gets an `arquivo` row of the active company and is stored under a random key
// (server/uploads/storage.ts). Reading and deleting look the key up among the caller's company's rows only.
import type { Context, Hono } from 'hono';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv } from '../app/env.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { route } from '../core/pipeline.ts';
import { sessionFromCookie } from '../auth/middleware.ts';
import { HttpError, ok } from '../http/envelope.ts';
import { isKey, newKey, thumbKey, type Storage } from '../uploads/storage.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { requestEm } from '../db/context.ts';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES = 10;
export const THUMB_PX = 500;
export const FILE_URL = '/api/upload/file/';
/** Largest multipart body of each upload route (the files plus the form's own bytes). */
export const uploadBodyLimit = (path: string) => (path.startsWith('/api/upload/many/') ? MAX_FILES : 1) * MAX_FILE_BYTES + 256 * 1024;

export const MSG_FORMAT = 'Formato de arquivo invalido';
export const MSG_SIZE = 'O arquivo excede o limite de 10 MB';

/** Images are re-encoded as PNG (sharp decodes them: a forged header fails there too). */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);
/** Other content kept as sent. */
const FILES = new Set([
  'application/pdf', 'application/zip', 'application/gzip', 'application/x-7z-compressed',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);

type Row = Record<string, any>;
interface Stored { key: string; thumb: string | null; body: Buffer; thumbBody: Buffer | null; mime: string; nome: string; largura: number | null; altura: number | null }

const fail = (status: 400 | 403 | 404 | 413 | 415, msg: string) => new HttpError(status, msg, { file: '', path: '' });

/** The client's file name, only as a label: no folders, no control characters, at most 255 characters. */
export function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean && clean !== '.' && clean !== '..' ? clean : 'arquivo';
}

async function prepare(file: File): Promise<Stored> {
  if (file.size > MAX_FILE_BYTES) throw fail(413, MSG_SIZE);
  if (file.size === 0) throw fail(400, 'O arquivo está vazio');
  const body = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(body);
  const nome = cleanName(file.name);
  if (type && IMAGES.has(type.mime)) {
    try {
      // rotate(): applies the EXIF orientation; limitInputPixels: no decompression bombs.
      const png = await sharp(body, { limitInputPixels: 50_000_000 }).rotate().png().toBuffer({ resolveWithObject: true });
      const thumbBody = await sharp(png.data).resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
      const key = newKey('png');
      return { key, thumb: thumbKey(key), body: png.data, thumbBody, mime: 'image/png', nome, largura: png.info.width, altura: png.info.height };
    } catch {
      throw fail(415, MSG_FORMAT);
    }
  }
  if (!type || !FILES.has(type.mime)) throw fail(415, MSG_FORMAT);
  return { key: newKey(type.ext), thumb: null, body, thumbBody: null, mime: type.mime, nome, largura: null, altura: null };
}

const arquivo = (em: EntityManager) => ormName(em, entityByKey('arquivo')!);

const answer = (r: Row) => ({
  id: r.id, filename: r.chave, nome: r.nome, mime: r.mime, tamanho: r.tamanho, largura: r.largura ?? null, altura: r.altura ?? null,
  file: FILE_URL + r.chave, path: FILE_URL + r.chave, urlResized: r.miniatura ? FILE_URL + r.miniatura : null,
});

/** The {company} of the path must be the session's active company (the rows are written to it). */
function company(c: Context<AppEnv>, value: unknown): number {
  const s = c.get('session');
  if (String(value ?? '').trim() !== String(s.empresaAtiva)) throw fail(403, 'A empresa informada não corresponde à empresa ativa da sessão');
  return s.empresaAtiva;
}

async function files(c: Context<AppEnv>): Promise<File[]> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) throw fail(400, 'Envie o arquivo como multipart/form-data no campo file');
  let form: Record<string, unknown>;
  try { form = await c.req.parseBody({ all: true }); } catch { throw fail(400, 'Requisição inválida: corpo multipart malformado'); }
  const list = ['file', 'files', 'file[]', 'files[]'].flatMap((k) => { const v = form[k]; return Array.isArray(v) ? v : v == null ? [] : [v]; });
  const out = list.filter((v): v is File => v instanceof File);
  if (!out.length) throw fail(400, 'Nenhum arquivo enviado no campo file');
  return out;
}

/** Stores the files and their rows, all or none. */
async function save(c: Context<AppEnv>, empresaId: number, list: File[]): Promise<Row[]> {
  const prepared: Stored[] = [];
  for (const f of list) prepared.push(await prepare(f));
  const storage = c.get('storage');
  const written: string[] = [];
  try {
    for (const p of prepared) {
      await storage.put(p.key, p.body, p.mime); written.push(p.key);
      if (p.thumb && p.thumbBody) { await storage.put(p.thumb, p.thumbBody, 'image/png'); written.push(p.thumb); }
    }
    const em = requestEm(c);
    return await em.transactional(async (tx) => {
      const rows = prepared.map((p) => tx.create(arquivo(tx), {
        empresaId, nome: p.nome, chave: p.key, miniatura: p.thumb, mime: p.mime, tamanho: p.body.length,
        largura: p.largura, altura: p.altura, usuario: c.get('session').usuarioId,
      } as never) as Row);
      await tx.flush();
      return rows;
    });
  } catch (e) {
    await removeAll(storage, written, c);
    throw e;
  }
}

async function removeAll(storage: Storage, keys: string[], c: Context<AppEnv>) {
  for (const k of keys) await storage.delete(k).catch((err) => c.get('log').error({ err, key: k }, 'falha ao remover arquivo'));
}

/** The caller's company's row holding the key (as the file or its thumbnail); 404 otherwise. */
async function findRow(c: Context<AppEnv>, key: unknown): Promise<Row> {
  if (!isKey(key)) throw fail(404, 'Arquivo não encontrado');
  const em = requestEm(c);
  const row = await em.findOne(arquivo(em), { $or: [{ chave: key }, { miniatura: key }], ...scopeWhere(entityByKey('arquivo')!, c.get('session')) } as never) as Row | null;
  if (!row) throw fail(404, 'Arquivo não encontrado');
  return row;
}

export default (api: Hono<AppEnv>) => {
  route(api, 'post', '/upload/single/:company', { permission: ['adm.sis.arquivo.envia'], scope: 'empresa' }, async (c) => {
    const empresaId = company(c, c.req.param('company'));
    const list = await files(c);
    if (list.length > 1) throw fail(400, 'Envie um único arquivo (use /upload/many para vários)');
    const [row] = await save(c, empresaId, list);
    return ok(c, answer(row), 'Arquivo enviado', 201);
  });

  route(api, 'post', '/upload/many/:company', { permission: ['adm.sis.arquivo.envia'], scope: 'empresa' }, async (c) => {
    const empresaId = company(c, c.req.param('company'));
    const list = await files(c);
    if (list.length > MAX_FILES) throw fail(400, `Envie no máximo ${MAX_FILES} arquivos por vez`);
    const rows = await save(c, empresaId, list);
    return ok(c, rows.map(answer), 'Arquivos enviados', 201);
  });

  route(api, 'post', '/upload/delete', { permission: ['adm.sis.arquivo.exclui'], scope: 'empresa' }, async (c) => {
    const body = await c.req.json().catch(() => { throw fail(400, 'Requisição inválida: JSON malformado'); }) as Row;
    if (!body || typeof body !== 'object') throw fail(400, 'Informe filename e company');
    company(c, body.company);
    const name = typeof body.filename === 'string' && body.filename.startsWith(FILE_URL) ? body.filename.slice(FILE_URL.length) : body.filename;
    const row = await findRow(c, name);
    const em = requestEm(c);
    await em.nativeDelete(arquivo(em), { id: row.id } as never);
    await removeAll(c.get('storage'), [row.chave, row.miniatura].filter(Boolean), c);
    return ok(c, { id: row.id, filename: row.chave }, 'Arquivo excluído');
  });

  // Any user of the owning company reads its files (they show on the records that use them); <img> and download
  // links send the front end's cookie, not a bearer header.
  api.get('/upload/file/:filename', sessionFromCookie());
  route(api, 'get', '/upload/file/:filename', { permission: 'self', scope: 'empresa' }, async (c) => {
    const key = c.req.param('filename') ?? '';
    const row = await findRow(c, key);
    const data = await c.get('storage').get(key);
    if (!data) throw fail(404, 'Arquivo não encontrado');
    const mime = key === row.miniatura ? 'image/png' : String(row.mime);
    c.header('Content-Type', mime);
    c.header('Cache-Control', 'private, max-age=3600');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    c.header('Content-Disposition', `${mime.startsWith('image/') ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(String(row.nome))}`);
    return c.body(new Uint8Array(data));
  });
};
