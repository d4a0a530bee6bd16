// Writes a generated tree: only files whose content changed, and removes stale files.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export interface WriteStats { written: string[]; removed: string[]; unchanged: number }

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function removeEmptyDirs(dir: string, root: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const name of readdirSync(dir)) removeEmptyDirs(join(dir, name), root);
  if (dir !== root && readdirSync(dir).length === 0) rmdirSync(dir);
}

export function writeTree(root: string, files: Map<string, string>): WriteStats {
  const stats: WriteStats = { written: [], removed: [], unchanged: 0 };
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const full = join(root, rel);
    if (existsSync(full) && readFileSync(full, 'utf8') === content) { stats.unchanged++; continue; }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    stats.written.push(rel);
  }
  for (const full of walk(root)) {
    const rel = relative(root, full).split(sep).join('/');
    if (!files.has(rel)) { unlinkSync(full); stats.removed.push(rel); }
  }
  removeEmptyDirs(root, root);
  return stats;
}
