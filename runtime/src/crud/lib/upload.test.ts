import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta } from '../../../../shared/model';
import { buildUiSchema } from './schemaUi';
import { session } from '../../api/session';
import { checkFile, deleteFile, MAX_FILE_BYTES, MSG_FORMAT, MSG_SIZE, rotate, rotatedSize, thumbOf, uploadFile, zoomIn, zoomOut } from './upload';

describe('uploader checks (spec sections 5 and 8)', () => {
  it('images only, at most 10 MB', () => {
    expect(checkFile({ type: 'image/png', size: 1000 }, 'image')).toBeNull();
    expect(checkFile({ type: 'image/jpeg', size: MAX_FILE_BYTES }, 'image')).toBeNull();
    expect(checkFile({ type: 'application/pdf', size: 1000 }, 'image')).toBe(MSG_FORMAT);
    expect(checkFile({ type: 'image/svg+xml', size: 1000 }, 'image')).toBe(MSG_FORMAT);
    expect(checkFile({ type: '', size: 1000 }, 'image')).toBe('Formato de arquivo invalido');
    expect(checkFile({ type: 'image/png', size: MAX_FILE_BYTES + 1 }, 'image')).toBe('Files should not exceed 10MB in size');
    expect(checkFile({ type: 'application/octet-stream', size: 5 }, 'file')).toBeNull();
    expect(checkFile({ type: 'application/zip', size: MAX_FILE_BYTES + 1 }, 'file')).toBe(MSG_SIZE);
    // A field's upload.accept: only those endings (the firmware .bin), whatever type the browser guessed.
    expect(checkFile({ type: 'application/octet-stream', size: 5, name: 'GV50.BIN' }, 'file', ['.bin'])).toBeNull();
    expect(checkFile({ type: 'application/zip', size: 5, name: 'fw.zip' }, 'file', ['.bin'])).toBe(MSG_FORMAT);
    expect(checkFile({ type: 'application/octet-stream', size: MAX_FILE_BYTES + 1, name: 'fw.bin' }, 'file', ['.bin'])).toBe(MSG_SIZE);
  });
});

describe('crop tools', () => {
  it('zoom ×2 / ×0.5 within 1..8, rotation in 90° steps', () => {
    expect([zoomIn(1), zoomIn(2), zoomIn(8), zoomOut(4), zoomOut(1), zoomOut(1.5)]).toEqual([2, 4, 8, 2, 1, 1]);
    expect([rotate(0, 90), rotate(270, 90), rotate(0, -90), rotate(90, -90)]).toEqual([90, 0, 270, 0]);
  });
  it('bounding box of the rotated image', () => {
    expect(rotatedSize(400, 300, 0)).toEqual({ width: 400, height: 300 });
    expect(rotatedSize(400, 300, 90)).toEqual({ width: 300, height: 400 });
    expect(rotatedSize(400, 300, 180)).toEqual({ width: 400, height: 300 });
    expect(rotatedSize(400, 300, 270)).toEqual({ width: 300, height: 400 });
  });
  it('thumbnail URL of a stored image', () => {
    const k = '0123456789abcdef0123456789abcdef';
    expect(thumbOf(`/api/upload/file/${k}.png`)).toBe(`/api/upload/file/${k}_500.png`);
    expect(thumbOf(`/api/upload/file/${k}.zip`)).toBe(`/api/upload/file/${k}.zip`);
    expect(thumbOf('https://exemplo.com/a.png')).toBe('https://exemplo.com/a.png');
  });
});

describe('upload calls (spec section 7)', () => {
  afterEach(() => { vi.unstubAllGlobals(); session.set(null); });
  it('POST upload/single/{active company} with the multipart field file; upload/delete with filename and company', async () => {
    vi.stubGlobal('document', { cookie: 'rastro_token=tok' });
    session.set({ id: 1, login: 'a', empresaAtiva: 7, empresas: [], roles: [], ui: {} });
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const payload = url.includes('single') ? { file: '/api/upload/file/x.png', filename: 'x.png' } : { id: 1 };
      return new Response(JSON.stringify({ status: 201, msg: 'ok', payload }), { status: 201 });
    });
    const up = await uploadFile(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'logo.png');
    expect(up.file).toBe('/api/upload/file/x.png');
    expect(calls[0].url).toBe('/api/upload/single/7');
    const h = calls[0].init.headers as Headers;
    expect([h.get('authorization'), h.get('companyId'), h.get('content-type')]).toEqual(['Bearer tok', '7', null]);
    const body = calls[0].init.body as FormData;
    const file = body.get('file') as File;
    expect([file.name, file.size]).toEqual(['logo.png', 3]);
    await deleteFile('x.png');
    expect(calls[1].url).toBe('/api/upload/delete');
    expect(JSON.parse(calls[1].init.body as string)).toEqual({ filename: 'x.png', company: 7 });
  });
  it('a refused upload throws the server message', async () => {
    vi.stubGlobal('document', { cookie: '' });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ status: 415, msg: 'Formato de arquivo invalido', payload: { file: '', path: '' } }), { status: 415 }));
    await expect(uploadFile(new Blob(['x']), 'a.png')).rejects.toThrow('Formato de arquivo invalido');
  });
});

describe('form widgets of the field types', () => {
  it('image → imageUpload, file → fileUpload', () => {
    const fld = (name: string, type: string) => ({ name, column: name, type, label: name, required: false, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false });
    const entity = { key: 'x', fields: [fld('logo', 'image'), fld('anexo', 'file')], form: { sections: [{ title: 'A', fields: ['logo', 'anexo'] }] } } as unknown as EntityMeta;
    const schema: JSONSchema7 = { type: 'object', properties: { logo: { type: ['string', 'null'] }, anexo: { type: ['string', 'null'] } } };
    const ui = buildUiSchema(entity, schema);
    expect(ui.logo).toEqual({ 'ui:widget': 'imageUpload' });
    expect(ui.anexo).toEqual({ 'ui:widget': 'fileUpload' });
  });
});
