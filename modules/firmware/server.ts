// Firmware files: upload (.bin, one file) and download of a firmware row's file; the write hooks of the firmware
// register (the file must be stored) and of firmware updates (queued as a device command).
import { defineModule } from '../../server/core/module.ts';
import { MSG_SIZE } from '../../server/calls/upload.ts';
import routes, { FIRMWARE_BODY_LIMIT, isFirmwareUpload } from './server/firmware.ts';
import { hooks } from './server/hooks.ts';

export default defineModule({ name: 'firmware', routes, hooks, bodyLimits: [{ match: isFirmwareUpload, maxSize: FIRMWARE_BODY_LIMIT, message: MSG_SIZE }] });
