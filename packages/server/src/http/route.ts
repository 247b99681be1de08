import { api, successEnvelope, type CallDef } from '@examhall/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Candidate } from '../repositories/candidates.js';
import type { StaffActor } from '../services/access.js';
import type { Services } from '../services/index.js';
import { fail } from './errors.js';
import { candidateToken, staffToken } from './tokens.js';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a handler receives: validated input and, for protected calls, who is calling. */
export interface RouteContext<C extends CallDef> {
  query: Out<C['query']>;
  body: Out<C['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The token the caller presented (candidate or staff, by the call's kind). */
  token: string;
  /** The candidate, on candidate calls. */
  candidate: C['auth'] extends 'candidate' ? Candidate : undefined;
  /** The staff actor, on staff calls. */
  staff: C['auth'] extends 'staff' ? StaffActor : undefined;
}

/** A handler returns the call's data; the envelope is added here. */
export type Handler<C extends CallDef> = (ctx: RouteContext<C>) => Promise<z.input<C['data']>>;

/** Calls that stay open during maintenance: the shell needs them to show the notice; staff keep working. */
const OPEN_IN_MAINTENANCE: ReadonlySet<CallDef> = new Set<CallDef>([api.siteConfig, api.timeTable, api.staffLogin]);

/** The caller of a request, once authenticated. */
interface Principal {
  token: string;
  candidate?: Candidate;
  staff?: StaffActor;
}
const principals = new WeakMap<FastifyRequest, Principal>();

/** Registers one catalogue call: schemas, authentication, maintenance, envelope. */
export function route<C extends CallDef>(app: FastifyInstance, services: Services, call: C, handler: Handler<C>): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      tags: [call.path.split('/')[1] ?? 'api'],
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { 200: successEnvelope(call.data) },
    },
    config: { call },
    // Who is calling is settled before the body is even parsed: a stranger gets 401, never a validation answer.
    onRequest: async (request) => {
      if (call.auth !== 'staff' && !OPEN_IN_MAINTENANCE.has(call) && services.site.inMaintenance()) {
        throw fail('maintenance');
      }
      if (call.auth === 'candidate') {
        const token = candidateToken(request) ?? '';
        const candidate = await services.candidateAuth.resolve(token);
        if (!candidate) throw fail('not_logged_in');
        principals.set(request, { token, candidate });
      } else if (call.auth === 'staff') {
        const token = staffToken(request) ?? '';
        const staff = await services.staff.resolve(token);
        if (!staff) throw fail('not_logged_in');
        principals.set(request, { token, staff });
      }
    },
    handler: async (request, reply) => {
      const who = principals.get(request) ?? { token: '' };
      const data = await handler({
        query: request.query as Out<C['query']>,
        body: request.body as Out<C['body']>,
        request,
        reply,
        token: who.token,
        candidate: who.candidate as RouteContext<C>['candidate'],
        staff: who.staff as RouteContext<C>['staff'],
      });
      return { status: 'success' as const, msg: '', data };
    },
  });
}
