// The contract between the gateway and the modules that read positions as they are stored: a module's
// modules/<name>/ingest.ts default-exports one IngestModule (found by folder, like server.ts; the core names none).
// The writer hands each committed batch's positions to every started consumer after COMMIT, without waiting: a
// consumer keeps its own queue and works outside the write path (Gateway.drain() also waits for it).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import type { Weights } from '../../shared/peso.ts';

/** One stored position, with the device's company, asset and driver at that moment. */
export interface IngestFix {
  serial: string;
  empresaId: number;
  ativoId: number | null;
  motoristaId: number | null;
  /** Fix time, ms since the epoch. */
  t: number;
  lat: number;
  lon: number;
  /** km/h */
  speed: number | null;
  ignition: boolean | null;
  valid: boolean;
  /** km, when the device reports an odometer (attributes odometer, odo_can or odo_gps). */
  odometer: number | null;
  /** From the device's memory (sent late). */
  buffered: boolean;
  /** An RFID card read by the device at this fix (the decoded attribute `rfid`: Queclink GTIDA …), else null. */
  rfid?: string | null;
  /** kg the message reports over CAN (axle and gross weights, shared/peso.ts), else null. */
  weights?: Weights | null;
}

export interface IngestConsumer {
  /** Positions of one committed batch (any order, several devices). Must not throw nor block. */
  positions(fixes: IngestFix[]): void;
  /** Resolves when everything handed so far is processed. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export interface IngestLog {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

export interface IngestContext {
  pool: pg.Pool;
  log: IngestLog;
  publish(rows: { empresaId: number | null; serial: string }[]): void;
}

export interface IngestModule {
  name: string;
  /** Modules whose consumers read what this one reads after them (e.g. totals read the stored trips): they are
   *  handed each batch and drained first. */
  after?: string[];
  /** Started with the gateway: SQL through its pool (the gateway's role, every company); `publish` tells the API
   *  processes that rows of these serials changed (the latest-state bus: their live pushes read them again). */
  start(ctx: IngestContext): IngestConsumer;
}

export const defineIngest = (m: IngestModule): IngestModule => m;

const MODULES_DIR = fileURLToPath(new URL('../../modules/', import.meta.url));

/** Every modules/<name>/ingest.ts, in name order, a module after those it names in `after`. */
export async function loadIngestModules(): Promise<IngestModule[]> {
  const names = existsSync(MODULES_DIR) ? readdirSync(MODULES_DIR).sort().filter((n) => existsSync(join(MODULES_DIR, n, 'ingest.ts'))) : [];
  const mods = await Promise.all(names.map(async (name) => {
    const m = (await import(pathToFileURL(join(MODULES_DIR, name, 'ingest.ts')).href)).default as IngestModule;
    if (m?.name !== name) throw new Error(`modules/${name}/ingest.ts: default export must be an ingest module named '${name}'`);
    return m;
  }));
  return orderIngestModules(mods);
}

/** Modules in the given order, each after the modules it names in `after` (unknown names are ignored; a cycle is an error). */
export function orderIngestModules(mods: IngestModule[]): IngestModule[] {
  const byName = new Map(mods.map((m) => [m.name, m]));
  const out: IngestModule[] = [], state = new Map<string, 'visiting' | 'done'>();
  const visit = (m: IngestModule) => {
    if (state.get(m.name) === 'done') return;
    if (state.get(m.name) === 'visiting') throw new Error(`ingest: ciclo em 'after' passando por '${m.name}'`);
    state.set(m.name, 'visiting');
    for (const d of m.after ?? []) { const dep = byName.get(d); if (dep) visit(dep); }
    state.set(m.name, 'done');
    out.push(m);
  };
  mods.forEach(visit);
  return out;
}
