// Diagnostics: devices, processing queue, health checks and on-board VDO commands.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/diagnostico.ts';

export default defineModule({ name: 'diagnostico', providers });
