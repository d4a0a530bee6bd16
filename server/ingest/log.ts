// Gateway logger (pino); LOG_LEVEL overrides.
import pino from 'pino';

export const log = pino({ name: 'gateway', level: process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info') });
export type Logger = typeof log;
