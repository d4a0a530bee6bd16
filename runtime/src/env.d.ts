/// <reference types="vite/client" />

// Resolved by the vite alias to runtime/src/generated (npm run generate).
declare module '@rastro/generated' {
  import type { ComponentType } from 'react';
  import type { JSONSchema7 } from 'json-schema';
  export const schemas: Record<string, () => Promise<JSONSchema7>>;
  export type ScreenModule = { default: ComponentType };
  export const screens: { key: string; route: string; permission: string; public?: boolean; load: () => Promise<ScreenModule> }[];
}
declare module '@rastro/generated/icons' {
  import type { ReactElement } from 'react';
  export const icons: Record<string, ReactElement>;
}
declare module '@rastro/generated/model.json' {
  import type { BrowserModel } from '../../shared/model';
  const model: BrowserModel;
  export default model;
}
declare module 'ra-language-portuguese' {
  const messages: Record<string, any>;
  export default messages;
}
