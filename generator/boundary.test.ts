// Metadata for the company boundary (issue 6 §2): `companies`, `platform` and `caseInsensitive`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();

const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('company boundary metadata', () => {
  it('normalizes companies, the platform key with the keys it gates, and case-insensitive uniques', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const by = (k: string) => m.entities.find((e) => e.key === k)!;
    expect(by('usuario').companies).toBe('empresas');
    expect(by('empresa').companies).toBe('id');
    expect(by('sessao').companies).toBe('usuario.empresas');
    expect(by('historico_de_login').companies).toBe('usuario.empresas');
    expect(by('cargo').scope).toBe('empresa');
    expect(by('usuario').fields.find((f) => f.name === 'login')!.caseInsensitive).toBe(true);
    expect(m.platform).toHaveLength(1);
    expect(m.platform![0]).toMatchObject({ key: 'adm.sis.plataforma', label: 'Plataforma: Administrar ambientes e empresas' });
    const gated = m.platform![0].gated;
    expect(gated.filter((k) => /^adm\.sis\.(ambiente|empresa)\./.test(k))).toEqual([
      'adm.sis.ambiente.adicionar', 'adm.sis.ambiente.editar', 'adm.sis.ambiente.excluir', 'adm.sis.ambiente.lista', 'adm.sis.ambiente.visualizar',
      'adm.sis.empresa.adicionar', 'adm.sis.empresa.cancela_suspensao', 'adm.sis.empresa.desativa', 'adm.sis.empresa.excluir', 'adm.sis.empresa.suspende',
    ]);
    // Platform-wide catalogues (scope global): only their writes are gated; everyone with the key reads them.
    const others = gated.filter((k) => !/^adm\.sis\.(ambiente|empresa)\./.test(k));
    expect(others).toEqual(expect.arrayContaining(['adm.sis.cadastro.pais.adicionar', 'adm.sis.cadastro.pais.editar', 'adm.sis.cadastro.pais.excluir']));
    for (const k of others) {
      expect(k).toMatch(/\.(adicionar|editar|excluir)$/);
      expect(m.entities.find((e) => k.startsWith(`${e.permission}.`) && k.split('.').length === e.permission.split('.').length + 1)?.scope, k).toBe('global');
    }
    expect(m.permissions.map((p) => p.key)).toContain('adm.sis.plataforma');
    // Every ambiente-scoped register says which companies its rows belong to.
    expect(m.entities.filter((e) => e.scope === 'ambiente' && !e.companies).map((e) => e.key)).toEqual([]);
  });

  it('refuses companies paths that do not lead to empresa, outside scope ambiente, or through an entity without companies', async () => {
    const p = project();
    editYaml(p, 'adm/usuario.yaml', (d) => { d.companies = 'cargos'; });
    editYaml(p, 'adm/sessao.yaml', (d) => { d.companies = 'empresaAtiva.empresas'; });
    editYaml(p, 'adm/cargo.yaml', (d) => { d.companies = 'id'; });
    const out = (await problems(p)).join('\n');
    expect(out).toContain('adm/usuario.yaml: /companies: deve ser id (na entidade empresa) ou um campo reference/referenceList para empresa: cargos');
    expect(out).toContain('adm/sessao.yaml: /companies: empresa deve declarar companies: empresas');
    expect(out).toContain('adm/cargo.yaml: /companies: companies exige scope: ambiente');
  });

  it('refuses unknown platform operations, a platform key without a label, and caseInsensitive on a non-unique field', async () => {
    const p = project();
    editYaml(p, 'adm/empresa.yaml', (d) => { d.platform.operations = ['suspende', 'inexistente']; });
    editYaml(p, 'adm/ambiente.yaml', (d) => { delete d.platform.label; });
    editYaml(p, 'adm/usuario.yaml', (d) => { d.fields.find((f: any) => f.name === 'nome').caseInsensitive = true; });
    const out = (await problems(p)).join('\n');
    expect(out).toContain('adm/empresa.yaml: /platform/operations/1: operação desconhecida: inexistente');
    expect(out).toContain('a permissão de plataforma adm.sis.plataforma precisa de label em uma das declarações');
    expect(out).toContain('adm/usuario.yaml: /fields/0/caseInsensitive: caseInsensitive exige unique: true em campo de texto');
  });
});
