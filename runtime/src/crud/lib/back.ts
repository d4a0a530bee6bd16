// "Back" of a page that may have been opened by its URL (typed, bookmarked, a new tab): the previous entry of this
// app when there is one (the router numbers its entries in history.state.idx), else `fallback` (the entity's list),
// never the browser's page before the app (about:blank).
import { useNavigate } from 'react-router-dom';

/** Whether the router has an entry of this app before the current one. */
export const hasAppHistory = (state: unknown = globalThis.history?.state): boolean =>
  typeof (state as { idx?: unknown } | null)?.idx === 'number' && (state as { idx: number }).idx > 0;

export function useBack(fallback: string): () => void {
  const navigate = useNavigate();
  return () => (hasAppHistory() ? navigate(-1) : navigate(fallback, { replace: true }));
}
