import type { BaseLogger } from 'pino';

/** The logger services write to: pino's levels, so services need no HTTP framework (Fastify's logger fits). */
export type ServiceLog = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;
