// Libraries of events, parameters and families per device technology (protocol catalogues).
import { defineModule } from '../../server/core/module.ts';
import routes, { providers } from './server/biblioteca.ts';

export default defineModule({ name: 'biblioteca', routes, providers });
