/**
 * The request id: every request gets one (the caller's `X-Request-Id` when it is well formed, else a new one),
 * answered in the response header and written in every log line of that request, also those of services that
 * log through the app's root logger. Jobs store the id of the request that created them and run under it, so
 * their log lines carry it too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a request id travels in (in and out). */
export const REQUEST_ID_HEADER = 'x-request-id';
/** The log field that holds it (Fastify's own name for it). */
export const REQUEST_ID_LOG_KEY = 'reqId';
/** What an incoming id may look like: a proxy's UUID or trace id, never free text that could forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

/** What runs under a request id: a request, or a job a request created. */
interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The id of the request (or the job of a request) the caller runs under, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Runs `fn` under `requestId` (nothing changes when it is null). */
export function runWithRequestId<T>(requestId: string | null | undefined, fn: () => T): T {
  return requestId ? storage.run({ requestId }, fn) : fn();
}

/** The id of an incoming request: its `X-Request-Id` when well formed, else a fresh UUID. */
export function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value !== undefined && WELL_FORMED.test(value) ? value : randomUUID();
}

/** Marks a logger (and, through pino's prototype chain, its children) as already bound to a request id. */
const BOUND = Symbol('examhall.reqIdBound');

/** Marks `logger` as carrying the request id in its bindings (Fastify's per-request child logger). */
export function markBound<L extends object>(logger: L): L {
  (logger as Record<symbol, unknown>)[BOUND] = true;
  return logger;
}

/**
 * pino's mixin: a line written while a request or its job runs carries the request id, unless its logger is the
 * request's own child logger (which has it bound already).
 */
export function requestIdMixin(_obj: object, _level: number, logger?: object): Record<string, string> {
  if (logger && (logger as Record<symbol, unknown>)[BOUND]) return {};
  const requestId = currentRequestId();
  return requestId ? { [REQUEST_ID_LOG_KEY]: requestId } : {};
}

/** Fastify's onRequest hook (callback form): the rest of the request runs under its id. */
export function enterRequest(request: { id: string }, done: () => void): void {
  storage.run({ requestId: request.id }, done);
}
