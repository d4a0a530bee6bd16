// painel's write hook: the widgets are a list of known kinds and periods (../../widgets.ts checkWidgets), else 400 pt-BR.
// The owner is the caller (owner: usuario in the YAML); the company scope is the core's.
import { invalid, type WriteHook } from '../../../server/crud/hooks.ts';
import { checkWidgets } from '../widgets.ts';

export const painelHook: WriteHook = async ({ data }) => {
  if (!('widgets' in data)) return;
  const problem = checkWidgets(data.widgets);
  if (problem) throw invalid('widgets', 'Widgets', problem);
};
