// One median for every benchmark (bench/*.ts, protocol/*/bench.ts): the middle value, or the mean of the two
// middle values of an even count.
export function median(xs: readonly number[]): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
