// Firmware files: upload (.bin, one file) and download of a firmware row's file.
import { defineModule } from '../../server/core/module.ts';
import { MSG_SIZE } from '../../server/calls/upload.ts';
import routes, { FIRMWARE_BODY_LIMIT, isFirmwareUpload } from './server/firmware.ts';

export default defineModule({ name: 'firmware', routes, bodyLimits: [{ match: isFirmwareUpload, maxSize: FIRMWARE_BODY_LIMIT, message: MSG_SIZE }] });
