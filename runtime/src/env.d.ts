/// <reference types="vite/client" />

// Resolved by the vite alias to runtime/src/generated (or the fixture while it is missing).
declare module '@rastro/generated' {
  import type { ComponentType } from 'react';
  export type ResourceModule = { default: Partial<Record<'list' | 'create' | 'edit' | 'show', ComponentType>> };
  export const resources: { key: string; route: string; load: () => Promise<ResourceModule> }[];
  export type ScreenModule = { default: ComponentType };
  export const screens: { key: string; route: string; permission: string; load: () => Promise<ScreenModule> }[];
}
declare module '@rastro/generated/model.json' {
  import type { Model } from '../../generator/model';
  const model: Model;
  export default model;
}
declare module 'ra-language-portuguese' {
  const messages: Record<string, any>;
  export default messages;
}
