// The rjsf validator of the generated schemas: ajv8 with the x-compare keyword (cross-field comparisons,
// shared/messages.ts), so the form checks what the server checks.
import { customizeValidator } from '@rjsf/validator-ajv8';
import { compareKeyword } from '../../../../shared/messages';

export const validator = customizeValidator({ ajvOptionsOverrides: { keywords: [compareKeyword as any] } });
