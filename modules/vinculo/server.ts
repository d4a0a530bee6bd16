// Device links (equipamento ↔ ativo): the spec's named calls por_serial / por_ativo, and the rules of an open link
// (one per device, one per technology per vehicle: write hook vinculo_equipamento).
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/vinculo_equipamento.ts';
import { hooks } from './server/hook.ts';

export default defineModule({ name: 'vinculo', providers, hooks });
