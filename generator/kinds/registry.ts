// The metadata kinds the generator knows. A file's `kind:` picks its module (none, or an unknown value: entity,
// whose schema then names the problem); load → validate → normalize → emit each go through this list.
// Adding a kind is one module (types.ts KindModule) plus one line in KINDS — or registerKind() in a test.
import { entityKind } from './entity/index.ts';
import { hubKind } from './hub.ts';
import { providerKind } from './provider.ts';
import { relatorioKind } from './relatorio.ts';
import { screenKind } from './screen.ts';
import { telemetryKind } from '../telemetry.ts';
import type { KindModule } from './types.ts';

/** Built-in kinds, in normalisation order (a kind's normalize sees the model of the kinds before it). The first
 *  four are linked by generator/normalize.ts (their shared namespaces and cross checks); the others generically. */
const KINDS: KindModule[] = [entityKind, screenKind, providerKind, hubKind, telemetryKind, relatorioKind];
export const BUILTIN_KINDS = new Set(['entidade', 'tela', 'provider', 'hub']);

const registered: KindModule[] = [...KINDS];

export function kinds(): readonly KindModule[] {
  return registered;
}

/** Adds a kind (after the built-ins); answers a function that removes it again (tests). */
export function registerKind(k: KindModule): () => void {
  if (registered.some((x) => x.kind === k.kind)) throw new Error(`kind já registrado: ${k.kind}`);
  if (k.modelKey && registered.some((x) => x.modelKey === k.modelKey)) throw new Error(`modelKey já usado: ${k.modelKey}`);
  registered.push(k);
  return () => { const i = registered.indexOf(k); if (i >= 0) registered.splice(i, 1); };
}

/** The module of a parsed file: its `kind:` when registered, else the entity. */
export function kindOf(data: unknown): KindModule {
  const kind = !!data && typeof data === 'object' ? (data as { kind?: unknown }).kind : undefined;
  return (typeof kind === 'string' && registered.find((k) => k.kind === kind)) || entityKind;
}
