// Import of registers from spreadsheets (CSV/XLSX): template, preview, all-or-nothing import.
import { defineModule } from '../../server/core/module.ts';
import { MSG_SIZE } from '../../server/calls/upload.ts';
import routes, { MAX_FILE_BYTES } from './server/importacao.ts';

export default defineModule({
  name: 'importacao',
  routes,
  // One spreadsheet of at most 10 MB plus the form's own bytes.
  bodyLimits: [{ match: (c) => c.req.method === 'POST' && c.req.path.startsWith('/api/importacao/'), maxSize: MAX_FILE_BYTES + 256 * 1024, message: MSG_SIZE }],
});
