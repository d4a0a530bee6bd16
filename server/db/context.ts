// Process-wide ORM handle (set by the app factory).
import type { MikroORM } from '@mikro-orm/postgresql';

let current: MikroORM | undefined;
export function setOrm(orm: MikroORM): void { current = orm; }
export function getOrm(): MikroORM {
  if (!current) throw new Error('ORM not initialised');
  return current;
}
