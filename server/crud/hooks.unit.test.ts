// The write-hook registry, without a server: every hook named in the metadata exists; an unknown one is refused
// when the routes are built (start-up), naming the file.
import { describe, expect, it } from 'vitest';
import type { EntityMeta } from '../../shared/model.ts';
import model from '../generated/model.json' with { type: 'json' };
import { hookOf, writeHooks } from './hooks.ts';
import '../calls/index.ts'; // the modules' hooks (modules/*/server.ts)

describe('write hooks', () => {
  it('resolves every hook of the metadata and refuses an unknown one', () => {
    const named = (model.entities as unknown as EntityMeta[]).filter((e) => e.hook).map((e) => [e.key, e.hook]);
    expect(named).toEqual(expect.arrayContaining([['firmware', 'firmware'], ['atualizacao_firmware', 'atualizacao_firmware']]));
    for (const e of model.entities as unknown as EntityMeta[]) if (e.hook) expect(hookOf(e)).toBe(writeHooks[e.hook]);
    const bad = { key: 'x', file: 'metadata/cfg/x.yaml', hook: 'nao_existe' } as unknown as EntityMeta;
    expect(() => hookOf(bad)).toThrow('metadata/cfg/x.yaml: hook desconhecido: nao_existe');
    expect(hookOf({ key: 'y' } as unknown as EntityMeta)).toBeUndefined();
  });
});
