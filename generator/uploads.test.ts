// image / file fields: the JSON Schema (server validation and forms) accepts only the URL of an uploaded file.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { fieldSchema } from './emit/schemas.ts';
import { schemaKeywords } from './keywords.ts';
import type { FieldMeta, Model } from '../shared/model.ts';

const field = (type: string, extra: Partial<FieldMeta> = {}) => ({
  name: 'anexo', column: 'anexo', type, label: 'Anexo', required: false, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false, ...extra,
}) as FieldMeta;
const model = { entities: [] } as unknown as Model;
const key = '0123456789abcdef0123456789abcdef';

describe('image and file field schemas', () => {
  it('image: an uploaded PNG only, with a pt-BR message', () => {
    const s = fieldSchema(field('image', { label: 'Logotipo' }), model);
    expect(s['x-patternMessage']).toBe('Envie a imagem do campo Logotipo pelo botão Selecionar imagem');
    const ok = new Ajv({ keywords: [...schemaKeywords] }).compile(s);
    expect([`/api/upload/file/${key}.png`, null].map((v) => ok(v))).toEqual([true, true]);
    expect([`/api/upload/file/${key}_500.png`, `/api/upload/file/${key}.zip`, 'https://exemplo.com/a.png', '/api/upload/file/../x.png'].map((v) => ok(v))).toEqual([false, false, false, false]);
  });
  it('file: any uploaded extension; a field pattern of the YAML wins', () => {
    const ok = new Ajv({ keywords: [...schemaKeywords] }).compile(fieldSchema(field('file'), model));
    expect([`/api/upload/file/${key}.pdf`, `/api/upload/file/${key}.zip`, 'ftp://x/a.pdf'].map((v) => ok(v))).toEqual([true, true, false]);
    expect(fieldSchema(field('file', { pattern: '^x$', patternMessage: 'Outro' }), model)).toMatchObject({ pattern: '^x$', 'x-patternMessage': 'Outro' });
  });
});
