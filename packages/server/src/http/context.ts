import type { CallDef } from '@examhall/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Candidate } from '../repositories/candidates.js';
import type { StaffActor } from '../services/access.js';
import type { ApiCaller } from '../services/apiTokens.js';
import type { PhoneCaller } from '../services/evidence/phone.js';

/** A call's validated input part, or undefined when it has none. */
export type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

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
  /** The phone page's attempt and candidate, on phone calls (token from the `auth` query parameter). */
  phone: C['auth'] extends 'phone' ? PhoneCaller : undefined;
  /** The API token's caller, on integration calls (another system, `Authorization: Bearer`). */
  integration: C['auth'] extends 'integration' ? ApiCaller : undefined;
}
