// Billing through Superlógica (spec section 7, /wkd/adm/superlogica/…): clients (paged), charges, defaulters, paid-up
// clients and the credentials' check — providers with named calls for platform administrators (adm.sis.plataforma),
// and the screen /adm/sis/integracao/superlogica.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/providers.ts';

export default defineModule({ name: 'superlogica', providers });
