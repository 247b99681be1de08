import { STATUS_CODES as HTTP_REASONS } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS, type ErrorCode, type ErrorEnvelope } from '@examhall/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/database.js';
import { AppError } from '../errors.js';

/** Sends the error envelope. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  msg: string,
  data: ErrorEnvelope['data'] = null,
): FastifyReply {
  const body: ErrorEnvelope = { status: 'error', msg, code, data };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'not_logged_in',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
};

/** Turns the first validation issue into 'field: message'. */
function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    if (first) {
      const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'input';
      return `${field}: ${first.message ?? 'invalid'}`;
    }
  }
  return `${error.validationContext ?? 'input'}: ${error.message}`;
}

/** Installs the one error handler: every failure leaves as the envelope with a stable code. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error.status, error.code, error.message, error.data);
    if (error.validation) return sendError(reply, 422, 'validation_error', validationMessage(error));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, empty body, wrong content type, too large.
      const code = STATUS_CODES[status] ?? 'bad_request';
      const msg = code === 'validation_error' ? `body: ${error.message}` : error.message;
      return sendError(reply, code === 'validation_error' ? 422 : status, code, msg);
    }
    if (isDatabaseUnavailable(error)) {
      // Not this request's fault, and not for good: the page keeps what it sent and sends it again.
      request.log.warn({ err: error }, 'database unavailable');
      const { status, msg } = ERRORS.database_unavailable;
      return sendError(reply, status, 'database_unavailable', msg);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'internal_error', 'server error');
  });
}

/**
 * Fastify's errors before routing (a path that is not valid percent-encoding, `/api/%`): the envelope too. The
 * message names no part of the address, whose query may hold a token.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  // The security headers' hook has not run yet at this stage.
  void reply.header('x-content-type-options', 'nosniff');
  if (error.code === 'FST_ERR_BAD_URL') {
    void sendError(reply, 400, 'bad_request', 'path: not a valid address (broken percent-encoding)');
    return;
  }
  void sendError(reply, 400, 'bad_request', 'bad request');
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a query string past the header limit, a
 * malformed request line, a request that arrives too slowly): they get the envelope as a raw response.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'bad_request';
  const { status, msg } = ERRORS[code];
  const body = JSON.stringify({ status: 'error', msg, code, data: null } satisfies ErrorEnvelope);
  socket.end(
    `HTTP/1.1 ${status} ${HTTP_REASONS[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
