// SQL text helpers shared by every module that writes SQL.
/** A quoted SQL identifier. */
export const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
