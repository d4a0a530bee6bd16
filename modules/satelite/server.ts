// Satellite panel: messages of the satellite terminals. Its provider (painel_satelite) is declared in its YAML (`sql:`)
// and served by the read engine: no code.
import { defineModule } from '../../server/core/module.ts';

export default defineModule({ name: 'satelite' });
