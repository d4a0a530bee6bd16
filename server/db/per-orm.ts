// State that belongs to one running app (its ORM and pool), not to the process: a process may hold several apps
// (the integration tests run their files' apps in one process), and a limit or cache of one must not leak into another.
import type { EntityManager } from '@mikro-orm/postgresql';

/** Answers the app's own instance of `make()` for an entity manager (forks share their ORM's). */
export function perOrm<T>(make: () => T): (em: EntityManager) => T {
  const held = new WeakMap<object, T>();
  return (em) => {
    const key = em.getDriver();
    let v = held.get(key);
    if (v === undefined) { v = make(); held.set(key, v); }
    return v;
  };
}
