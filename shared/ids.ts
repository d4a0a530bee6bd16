// Ids and string lists out of ORM values (entities, Collections, JSON text, plain arrays): shared by every layer.
/** Ids out of a reference list value: array of ids or entities, a Collection, or a JSON string. */
export function idsOf(v: unknown): number[] {
  if (v == null) return [];
  if (typeof v === 'string') { try { return idsOf(JSON.parse(v)); } catch { return []; } }
  const anyV = v as { getIdentifiers?: () => unknown[]; isInitialized?: () => boolean };
  if (typeof anyV.getIdentifiers === 'function') return anyV.getIdentifiers().map(Number);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' && x ? Number((x as { id: unknown }).id) : Number(x))).filter((n) => Number.isFinite(n));
  return [];
}
export function idOf(v: unknown): number | null {
  if (v == null) return null;
  if (typeof v === 'object') return (v as { id?: number }).id ?? null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
export function strings(v: unknown): string[] {
  if (v == null) return [];
  if (typeof v === 'string') { try { return strings(JSON.parse(v)); } catch { return v.split(',').map((s) => s.trim()).filter(Boolean); } }
  return Array.isArray(v) ? v.map(String) : [];
}
