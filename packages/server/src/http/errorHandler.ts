import type { ErrorCode, ErrorEnvelope } from '@examhall/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

/** Sends the error envelope. */
export function sendError(reply: FastifyReply, status: number, code: ErrorCode, msg: string): FastifyReply {
  const body: ErrorEnvelope = { status: 'error', msg, code, data: null };
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
    if (error instanceof AppError) return sendError(reply, error.status, error.code, error.message);
    if (error.validation) return sendError(reply, 422, 'validation_error', validationMessage(error));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, empty body, wrong content type, too large.
      const code = STATUS_CODES[status] ?? 'bad_request';
      const msg = code === 'validation_error' ? `body: ${error.message}` : error.message;
      return sendError(reply, code === 'validation_error' ? 422 : status, code, msg);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'internal_error', 'server error');
  });
}
