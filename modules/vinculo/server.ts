// Device links (equipamento ↔ ativo) as read by the spec's named calls por_serial / por_ativo.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/vinculo_equipamento.ts';

export default defineModule({ name: 'vinculo', providers });
