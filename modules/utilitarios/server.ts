// Utilities of the spec (section 7): /util/cep/{cep}, /util/extenso/{valor}, /wkd/adm/api_placas/consulta/{placa}
// (providers with named calls, metadata/adm/*.yaml) and the screen /adm/sis/integracao/utilitarios.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/providers.ts';

export default defineModule({ name: 'utilitarios', providers });
