// Raw YAML shapes of an entity file (already validated against metadata/_schema/entity.schema.json).
import type { ActionGuard, AliasMeta, ColumnDisplay, CompareOp, FieldMeta, FieldType, FormSection, PermissionMeta, RuleMeta, Scope } from '../../../shared/model.ts';

export interface RawField extends Partial<Omit<FieldMeta, 'name' | 'type' | 'label'>> { name: string; type: FieldType; label: string }
export interface RawColumn extends ColumnDisplay { source: string; label?: string; default?: boolean; sortable?: boolean; virtual?: boolean; sql?: string; from?: string; tables?: string[] }
export interface RawEntity {
  key: string; table: string; label: { singular: string; plural: string }; route: string; permission: string;
  scope: Scope; menu?: { group: string; order: number; icon?: string }; recordRepresentation?: string; picker?: { groupBy: string; flat: string; secondLabel?: string };
  fields: RawField[];
  list?: { columns?: RawColumn[]; select?: { field: string }; refreshOn?: string;
    sort?: { field: string; order?: 'ASC' | 'DESC' } };
  search?: string[]; dateRange?: string; form?: { sections: FormSection[] };
  actions?: { name: string; label: string; set?: Record<string, unknown>; sets?: string[]; handler?: string; payload?: Record<string, unknown>; permission?: string; bulk?: boolean; confirm?: string; description?: string; visibleWhen?: Record<string, unknown[]>; guard?: ActionGuard }[];
  permissions?: PermissionMeta[]; readOnlyResource?: boolean; credentials?: boolean; importable?: boolean; listTabs?: { group: string; order: number; label?: string }; history?: boolean;
  owner?: string; aliases?: AliasMeta[]; listScreen?: string;
  companies?: string; platform?: { key: string; label?: string; operations: string[] };
  parent?: { entity: string; field: string; by?: string; path?: string }; calls?: string;
  params?: { name: string; field: string; values?: 'tecnologias' | 'modelos' }[];
  rules?: RuleMeta[]; hook?: string;
  compare?: ({ field: string; message: string } & Partial<Record<CompareOp, string>>)[];
  record?: { by?: string; path?: string; tabs: RawTab[] };
}
/** A tab as declared: name, label, permission and exactly one target property (a tab kind, kinds/entity/tabs.ts). */
export interface RawTab {
  name: string; label: string; permission?: string; group?: { entity: string; each: string };
  [target: string]: unknown;
}

/** Looks a field of the entity up by name; reports `{what} desconhecido: {name}` at path when absent. */
export type Known = (name: string, path: string, what?: string) => FieldMeta | undefined;
