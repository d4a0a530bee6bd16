// Firmware files (spec section 7: POST /firmware/{tecnology}/{model}, multipart field `file`; section 5: .bin only,
// at most 10 MB, one file). A firmware image has no magic bytes to check: the name must end in .bin, the size is
// checked here (and by the body limit before the body is read), the content is stored as sent under a random key of
// the storage (server/uploads/storage.ts, never a name from the request) and the answer's URL goes into the firmware
// row's `arquivo` (the firmware write hook, ./hooks.ts, checks it exists and keeps its size).
// The same path with a JSON body is the firmware register's create (server/crud/routes.ts): passed on untouched.
// GET /api/firmware/arquivo/{key} downloads the file of a firmware row to whoever may see the firmware list.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { sessionFromCookie } from '../../../server/auth/middleware.ts';
import { route } from '../../../server/core/pipeline.ts';
import { knownTecnologia } from '../../../server/crud/params.ts';
import { FIRMWARE_FILE } from './hooks.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import type { Row } from '../../../server/crud/query.ts';
import { HttpError, ok } from '../../../server/http/envelope.ts';
import { isKey, newKey } from '../../../server/uploads/storage.ts';
import { MAX_FILE_BYTES, MSG_SIZE, cleanName } from '../../../server/calls/upload.ts';
import { requestEm } from '../../../server/db/context.ts';

export const FIRMWARE_URL = '/api/firmware/arquivo/';
export const MSG_BIN = 'Formato de arquivo invalido: envie o firmware como arquivo .bin';
/** Largest multipart body of the upload: one file plus the form's own bytes. */
export const FIRMWARE_BODY_LIMIT = MAX_FILE_BYTES + 256 * 1024;

const fail = (status: 400 | 404 | 413 | 415, msg: string) => new HttpError(status, msg, { file: '', path: '' });

export const isMultipart = (c: Context) => (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/** Whether a request is a firmware upload (the body limit of server/app/index.ts reads this too). */
export const isFirmwareUpload = (c: Context) => c.req.method === 'POST' && /^\/api\/firmware\/[^/]+\/[^/]+$/.test(c.req.path) && isMultipart(c);

async function theFile(c: Context<AppEnv>): Promise<File> {
  let form: Record<string, unknown>;
  try { form = await c.req.parseBody({ all: true }); } catch { throw fail(400, 'Requisição inválida: corpo multipart malformado'); }
  const v = form.file;
  const list = (Array.isArray(v) ? v : v == null ? [] : [v]).filter((x): x is File => x instanceof File);
  if (!list.length) throw fail(400, 'Nenhum arquivo enviado no campo file');
  if (list.length > 1 || Object.keys(form).some((k) => k !== 'file' && form[k] instanceof File)) throw fail(400, 'Envie um único arquivo de firmware');
  return list[0];
}

export default (api: Hono<AppEnv>) => {
  // The firmware keys are platform operations (metadata firmware.yaml platform): can() drops them without the key.
  route(api, 'post', '/firmware/:tecnology/:model', {
    permission: (c) => (isMultipart(c) ? ['cfg.fir.lista.adicionar', 'cfg.fir.lista.editar'] : ['cfg.fir.lista.adicionar']),
    scope: 'global',
  }, async (c, next) => {
    if (!isMultipart(c)) { await next(); return; }
    await knownTecnologia(c.req.param('tecnology') ?? '', c.req.param('model') ?? '');
    const file = await theFile(c);
    const nome = cleanName(file.name);
    if (!/\.bin$/i.test(nome)) throw fail(415, MSG_BIN);
    if (file.size > MAX_FILE_BYTES) throw fail(413, MSG_SIZE);
    if (file.size === 0) throw fail(400, 'O arquivo está vazio');
    const body = Buffer.from(await file.arrayBuffer());
    const key = newKey('bin');
    await c.get('storage').put(key, body, 'application/octet-stream');
    const url = FIRMWARE_URL + key;
    return ok(c, { filename: key, nome, tamanho: body.length, mime: 'application/octet-stream', file: url, path: url }, 'Arquivo enviado', 201);
  });

  // Download links send the front end's cookie, not a bearer header.
  api.get('/firmware/arquivo/:filename', sessionFromCookie());
  route(api, 'get', '/firmware/arquivo/:filename', {
    permission: ['cfg.fir.lista.lista', 'cfg.fir.lista.visualizar', 'cfg.fir.atualizar.lista'], scope: 'global',
  }, async (c) => {
    const key = c.req.param('filename') ?? '';
    const url = FIRMWARE_URL + key;
    if (!isKey(key) || !FIRMWARE_FILE.test(url)) throw fail(404, 'Arquivo não encontrado');
    const em = requestEm(c);
    const row = (await em.findOne(ormName(em, entityByKey('firmware')!), { arquivo: url } as never)) as Row | null;
    const data = row ? await c.get('storage').get(key) : null;
    if (!row || !data) throw fail(404, 'Arquivo não encontrado');
    c.header('Content-Type', 'application/octet-stream');
    c.header('Cache-Control', 'private, max-age=3600');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    const name = `${row.tecnologia}_${row.modelo}_${row.versao}.bin`.replace(/[^A-Za-z0-9._-]/g, '_');
    c.header('Content-Disposition', `attachment; filename="${name}"`);
    return c.body(new Uint8Array(data));
  });
};
