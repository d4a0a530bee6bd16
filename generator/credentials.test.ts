// Metadata `credentials`: users, roles, grants, sessions and API keys, never written by an API-key call
// (server/core/pipeline.ts sessionStep; server/auth/api-key-credenciais.test.ts over HTTP).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();

describe('credentials', () => {
  it('marks the registers of users, roles, grants, sessions and API keys', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    expect(m.entities.filter((e) => e.credentials).map((e) => e.key).sort()).toEqual(['cargo', 'chave_de_api', 'permissao', 'sessao', 'usuario']);
  });

  it('refuses a credentials register that is importable, and a value that is not a boolean', async () => {
    const p = project();
    editYaml(p, 'adm/cargo.yaml', (d) => { d.importable = true; });
    expect(await metadataProblems(() => buildModel(p.metadata))).toContain('metadata/adm/cargo.yaml: /importable: cadastro de credenciais (credentials) não pode ser importado');
    const q = project();
    editYaml(q, 'adm/permissao.yaml', (d) => { d.credentials = 'sim'; });
    const out = await metadataProblems(() => buildModel(q.metadata));
    expect(out.some((x) => x.startsWith('metadata/adm/permissao.yaml: /credentials'))).toBe(true);
  });
});
