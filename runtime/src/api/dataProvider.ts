import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, Identifier } from 'react-admin';
import { call, httpClient } from './http';

export interface HistoryEntry {
  id?: Identifier;
  quem?: string;
  usuario?: string;
  quando?: string;
  createdAt?: string;
  operacao?: string;
  antes?: Record<string, unknown> | null;
  depois?: Record<string, unknown> | null;
  campos?: string[];
}

export interface BulkResult { id: Identifier; status: number; payload?: unknown; msg?: string }

export interface RastroDataProvider extends DataProvider {
  runAction(resource: string, id: Identifier, action: string, payload?: Record<string, unknown>): Promise<unknown>;
  /** A bulk action (metadata `bulk: true`) on the selected rows: one outcome per row. */
  runBulkAction(resource: string, action: string, ids: Identifier[], payload?: Record<string, unknown>): Promise<BulkResult[]>;
  history(resource: string, id: Identifier): Promise<HistoryEntry[]>;
}

const base = simpleRestProvider('/api', httpClient as any, 'Content-Range');

export const dataProvider: RastroDataProvider = {
  ...base,
  runAction: (resource, id, action, payload) => call(`/api/${resource}/${id}/${action}`, { method: 'POST', body: JSON.stringify(payload ?? {}) }),
  runBulkAction: (resource, action, ids, payload) => call(`/api/${resource}/${action}`, { method: 'POST', body: JSON.stringify({ ids, payload: payload ?? {} }) }),
  history: async (resource, id) => {
    const p = await call<any>(`/api/${resource}/${id}/historico`);
    return Array.isArray(p) ? p : Array.isArray(p?.items) ? p.items : [];
  },
};
