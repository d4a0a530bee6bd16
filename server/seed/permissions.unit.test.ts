// The seeded roles' keys: the read-only role opens hubs and screens and reads every register; platform-gated
// writes of the platform-wide catalogues stay out of both company roles.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../generator/generate.ts';
import { companyAdminPermissions, readOnlyPermissions } from './index.ts';

const model = buildModel(new URL('../../metadata', import.meta.url).pathname);

describe('seeded role keys', () => {
  it('read-only: list/view keys, the screens and the hubs; no writes', () => {
    const keys = readOnlyPermissions(model);
    expect(keys).toEqual(expect.arrayContaining(['adm.sis.cadastro', 'adm.sis.cadastro.pais.lista', 'adm.sis.cadastro.contatos.visualizar']));
    expect(keys.filter((k) => /\.(adicionar|editar|excluir)$/.test(k))).toEqual([]);
  });

  it('company administrator: the hub and the company registers, not the platform catalogue writes', () => {
    const keys = companyAdminPermissions(model);
    expect(keys).toEqual(expect.arrayContaining(['adm.sis.cadastro', 'adm.sis.cadastro.contatos.adicionar', 'adm.sis.cadastro.pais.lista']));
    expect(keys).not.toContain('adm.sis.cadastro.pais.adicionar');
    expect(keys).not.toContain('adm.sis.plataforma');
  });
});
