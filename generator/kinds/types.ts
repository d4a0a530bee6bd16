// A metadata kind: one module holds its JSON schema, its per-file normalisation, its cross checks, what it adds
// to the permission catalogue, the route table and the menu, and its emitters (generator/kinds/registry.ts).
import type { MenuNode, Model, PermissionMeta, RouteEntry } from '../../shared/model.ts';
import type { LoadedMetadata, SourceFile } from '../load.ts';

/** Reports one problem of the file being normalised: path = JSON pointer inside the file, msg in pt-BR. */
export type Err = (path: string, msg: string) => void;

/** What a kind's cross checks see: the model normalised so far and the shared namespaces. */
export interface LinkContext {
  meta: LoadedMetadata;
  model: Model;                         // entities, screens, providers, hubs… (permissions/routes/menu not yet)
  catalogue: Set<string>;               // permission keys declared so far
  problems: string[];
  /** Claims a key, route or permission for a file; a clash reports `{what} "{v}" já usado em {other}`. */
  claim(id: `key:${string}` | `route:${string}` | `perm:${string}`, file: string, path: string, what: string, v: string): void;
}

export interface KindEmit { server?: Record<string, string>; runtime?: Record<string, string> }

export interface KindModule<Item extends { key: string; file: string } = any, Raw = any> {
  /** The YAML `kind:` value that selects this module (entity files carry none, or `entidade`). */
  kind: string;
  /** JSON Schema of a file: a file name under metadata/_schema, or the schema itself. */
  schema: string | Record<string, unknown>;
  /** Model property holding the items, sorted by key (omitted when empty); none: kept out of model.json (the
   *  items still reach link and emit, and buildKinds() answers them). */
  modelKey?: string;
  /** Adjusts the schema read from the file before it is compiled (entity: the record-tab kinds). */
  withSchema?(schema: Record<string, any>): Record<string, any>;
  /** One file → one item; problems through err. ctx.model: the kinds registered before this one. */
  normalize(raw: Raw, src: SourceFile, err: Err, ctx: { model: Partial<Model> }): Item;
  /** Checks across files and kinds, once every item is normalised. */
  link?(items: Item[], ctx: LinkContext): void;
  /** Keys the items add to the permission catalogue. */
  permissions?(items: Item[]): PermissionMeta[];
  /** Route table entries (screens of the runtime). */
  routes?(items: Item[]): RouteEntry[];
  /** Menu entries: the item's `menu` group/order and the node shown. */
  menu?(items: Item[]): { key: string; menu?: { group: string; order: number; icon?: string }; node: MenuNode }[];
  /** Generated files of the kind (relative to server/generated and runtime/src/generated). */
  emit?(items: Item[], model: Model): KindEmit;
}
