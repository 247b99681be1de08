import { api, candidateExamRef, successEnvelope, type CallDef } from '@examhall/contract';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Services } from '../services/index.js';
import type { Candidate } from '../repositories/candidates.js';
import { authorize, type StaffActor } from '../services/access.js';
import type { ApiCaller } from '../services/apiTokens.js';
import type { PhoneCaller } from '../services/evidence/phone.js';
import type { Upload } from '../services/profile.js';
import type { SebProof } from '../services/safeExamBrowser.js';
import { AppError, fail } from '../errors.js';
import type { Download } from '../files.js';
import type { Out, RouteContext } from './context.js';
import { firstProblem, readUpload } from './multipart.js';
import { openStreams, startSse, type StreamOpener, type StreamStart } from './sse.js';
import { apiToken, candidateCredential, phoneToken, staffCredential } from './tokens.js';

/** A handler returns the call's data; the envelope is added here. */
export type Handler<C extends CallDef> = (ctx: RouteContext<C>) => Promise<z.input<C['data']>>;

/** What an upload handler receives: the file besides the validated fields (`body`). */
export type UploadHandler<C extends CallDef> = (ctx: RouteContext<C> & { file: Upload }) => Promise<z.input<C['data']>>;

/** Calls that stay open during maintenance: the shell needs them to show the notice; staff keep working. */
const OPEN_IN_MAINTENANCE: ReadonlySet<CallDef> = new Set<CallDef>([api.siteConfig, api.timeTable, api.staffLogin]);

/** The caller of a request, once authenticated. */
interface Principal {
  token: string;
  /** True when the token came from a cookie, which a browser attaches even to another site's requests. */
  viaCookie?: boolean;
  candidate?: Candidate;
  staff?: StaffActor;
  phone?: PhoneCaller;
  integration?: ApiCaller;
}
const principals = new WeakMap<FastifyRequest, Principal>();

/** Whether the request was authenticated by a cookie (see http/guards.ts: such writes must be same-origin). */
export function authenticatedByCookie(request: FastifyRequest): boolean {
  return principals.get(request)?.viaCookie === true;
}

/**
 * Settles who is calling before the body is even parsed: a stranger gets 401 and a role without the call's
 * permission 403, never a validation answer. Maintenance closes candidate calls first.
 */
function authenticate(services: Services, call: CallDef) {
  return async (request: FastifyRequest): Promise<void> => {
    // Maintenance closes the candidate's calls; staff and other systems keep working.
    const closable = call.auth !== 'staff' && call.auth !== 'integration';
    if (closable && !OPEN_IN_MAINTENANCE.has(call) && services.site.inMaintenance()) {
      throw fail('maintenance');
    }
    if (call.auth === 'candidate') {
      const { token, viaCookie } = candidateCredential(request) ?? { token: '', viaCookie: false };
      const candidate = await services.candidateAuth.resolve(token);
      if (!candidate) throw fail('not_logged_in');
      principals.set(request, { token, viaCookie, candidate });
    } else if (call.auth === 'staff') {
      const { token, viaCookie } = staffCredential(request) ?? { token: '', viaCookie: false };
      const staff = await services.staff.resolve(token);
      if (!staff) throw fail('not_logged_in');
      authorize(staff, call);
      principals.set(request, { token, viaCookie, staff });
    } else if (call.auth === 'phone') {
      // Only the QR link's query parameter: the phone never holds the candidate's cookie.
      const token = phoneToken(request) ?? '';
      principals.set(request, { token, phone: await services.phone.resolve(token) });
    } else if (call.auth === 'integration') {
      // Only the Authorization header: a browser never attaches an API token by itself.
      const token = apiToken(request) ?? '';
      const integration = await services.apiTokens.resolve(token);
      if (!integration) throw fail('not_logged_in', 'a live API token is required (Authorization: Bearer)');
      principals.set(request, { token, integration });
    }
  };
}

/** A catalogue call's route schema (its documentation and checked input), `summary` saying what it answers. */
function routeSchema(call: CallDef, summary: string) {
  return {
    summary,
    tags: [call.path.split('/')[1] ?? 'api'],
    ...(call.query ? { querystring: call.query } : {}),
    ...(call.body ? { body: call.body } : {}),
  };
}

/** The handler's context of an authenticated, validated request. */
function contextOf<C extends CallDef>(request: FastifyRequest, reply: FastifyReply): RouteContext<C> {
  const who = principals.get(request) ?? { token: '' };
  return {
    query: request.query as Out<C['query']>,
    body: request.body as Out<C['body']>,
    request,
    reply,
    token: who.token,
    candidate: who.candidate as RouteContext<C>['candidate'],
    staff: who.staff as RouteContext<C>['staff'],
    phone: who.phone as RouteContext<C>['phone'],
    integration: who.integration as RouteContext<C>['integration'],
  };
}

/** What Safe Exam Browser sent with a request to prove its settings. */
function sebProof(request: FastifyRequest): SebProof {
  const header = (name: string) => {
    const v = request.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return {
    path: request.raw.url ?? request.url,
    origin: `${request.protocol}://${request.host}`,
    configKeyHash: header('x-safeexambrowser-configkeyhash'),
    requestHash: header('x-safeexambrowser-requesthash'),
  };
}

/**
 * Checks, once a call's input is validated and before its handler runs, so no handler can forget any: the ids a staff
 * call names besides its scope (the catalogue's `refs`); a grader's call that would name a blind-marked exam's
 * candidates (`identity: 'refused'`); and for a candidate's call on an exam that requires Safe Exam Browser, the
 * browser's proof of the exam's settings (the exam named as `candidateExamRef` says).
 */
async function checkRefs<C extends CallDef>(services: Services, call: C, ctx: RouteContext<C>): Promise<void> {
  if (ctx.candidate) {
    const ref = candidateExamRef(call);
    const id = ref ? (ctx[ref.part] as Record<string, unknown> | undefined)?.[ref.field] : undefined;
    if (ref && typeof id === 'number') {
      await services.seb.require(ref.kind, id, sebProof(ctx.request));
    }
    return;
  }
  if (!ctx.staff) return;
  if (call.refs) await services.access.requireRefs(ctx.staff, call, ctx);
  if (call.identity === 'refused') await services.access.refuseHiddenIdentity(ctx.staff, call, ctx);
}

/** Registers one catalogue call: schemas, authentication, maintenance, envelope. */
export function route<C extends CallDef>(app: FastifyInstance, services: Services, call: C, handler: Handler<C>): void {
  if (call.stream) throw new Error(`${call.path} is a stream: register it with streamRoute`);
  if (call.bodyFormat === 'multipart') throw new Error(`${call.path} takes a file: register it with uploadRoute`);
  if (call.download) throw new Error(`${call.path} answers a file: register it with downloadRoute`);
  if (call.redirect) throw new Error(`${call.path} answers a redirect: register it with redirectRoute`);
  register(app, services, call, handler);
}

/**
 * Registers a catalogue call that answers a file instead of the envelope (`download: true`), with the same
 * authentication, permission and validation as every other call; its errors are the usual envelope.
 */
export function downloadRoute<C extends CallDef>(
  app: FastifyInstance,
  services: Services,
  call: C,
  handler: (ctx: RouteContext<C>) => Promise<Download>,
): void {
  if (!call.download) throw new Error(`${call.path} is not a download call`);
  const auth = authenticate(services, call);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: routeSchema(call, `${call.summary} (answers the file)`),
    config: { call },
    onRequest: async (request) => auth(request),
    handler: async (request, reply) => {
      const ctx = contextOf<C>(request, reply);
      await checkRefs(services, call, ctx);
      const file = await handler(ctx);
      // RFC 6266: an ASCII fallback name, and the exact one (Chinese folder names) percent-encoded.
      const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .type(file.mime)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(
          file.bytes instanceof Readable
            ? file.bytes
            : Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        );
    },
  });
}

/** Where a browser goes when a redirect call fails: the staff login page, which says why in its language. */
export function failedSignInPath(code: string): string {
  return `/admin/login?sso_error=${encodeURIComponent(code)}`;
}

/**
 * Registers a catalogue call that a browser navigates to and that answers a redirect (`redirect: true`: the single
 * sign-on steps), with the same authentication and validation as every other call. The handler answers where the
 * browser goes next; a refusal leads it to the staff login page naming the error code, never to an envelope it
 * would show as text.
 */
export function redirectRoute<C extends CallDef>(
  app: FastifyInstance,
  services: Services,
  call: C,
  handler: (ctx: RouteContext<C>) => Promise<string>,
): void {
  if (!call.redirect) throw new Error(`${call.path} is not a redirect call`);
  const auth = authenticate(services, call);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: routeSchema(call, `${call.summary} (answers a redirect)`),
    config: { call },
    onRequest: async (request) => auth(request),
    handler: async (request, reply) => {
      let location: string;
      try {
        location = await handler(contextOf<C>(request, reply));
      } catch (err) {
        const known = err instanceof AppError;
        if (known) request.log.info({ code: err.code, reason: err.message }, 'sign-in refused');
        else request.log.error({ err }, 'sign-in failed');
        location = failedSignInPath(known ? err.code : 'internal_error');
      }
      // No-store, as every answer made for one caller (caching.ts).
      return reply.redirect(location, 302);
    },
  });
}

/**
 * Registers a multipart catalogue call: after authentication, its file (the catalogue's `upload` field,
 * within its size limit) is read and the other form fields are validated by the call's `body` schema, so no
 * handler reads multipart itself.
 */
export function uploadRoute<C extends CallDef>(
  app: FastifyInstance,
  services: Services,
  call: C,
  handler: UploadHandler<C>,
): void {
  const upload = call.upload;
  if (call.bodyFormat !== 'multipart' || !upload) throw new Error(`${call.path} is not a multipart upload call`);
  register(app, services, call, async (ctx) => {
    const { file, fields } = await readUpload(ctx.request, upload);
    let body: unknown = undefined;
    if (call.body) {
      const parsed = call.body.safeParse(fields);
      if (!parsed.success) throw fail('validation_error', firstProblem(parsed.error));
      body = parsed.data;
    }
    const parsedCtx = { ...ctx, body: body as RouteContext<C>['body'] };
    await checkRefs(services, call, parsedCtx);
    return handler({ ...parsedCtx, file });
  });
}

function register<C extends CallDef>(app: FastifyInstance, services: Services, call: C, handler: Handler<C>): void {
  const auth = authenticate(services, call);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      tags: [call.path.split('/')[1] ?? 'api'],
      ...(call.query ? { querystring: call.query } : {}),
      // A multipart body is read by uploadRoute (file and fields together), which validates its fields.
      ...(call.body && call.bodyFormat !== 'multipart' ? { body: call.body } : {}),
      response: { 200: successEnvelope(call.data) },
    },
    config: { call },
    ...(call.bodyLimit ? { bodyLimit: call.bodyLimit } : {}),
    onRequest: async (request) => auth(request),
    handler: async (request, reply) => {
      const ctx = contextOf<C>(request, reply);
      // A multipart call's fields are validated, and then checked, by uploadRoute's handler.
      if (call.bodyFormat !== 'multipart') await checkRefs(services, call, ctx);
      const data = await handler(ctx);
      return { status: 'success' as const, msg: '', data };
    },
  });
}

/**
 * Registers a catalogue call that answers server-sent events, with the same authentication, permission,
 * maintenance and validation as every other call. `open` runs before anything is sent, so its failures
 * (and bad input) are the normal JSON envelope; the stream starts once it returns.
 */
export function streamRoute<C extends CallDef>(
  app: FastifyInstance,
  services: Services,
  call: C,
  open: StreamOpener<C>,
): void {
  if (call.stream !== 'sse') throw new Error(`${call.path} is not a stream`);
  const streams = openStreams(app);
  const auth = authenticate(services, call);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: routeSchema(call, `${call.summary} (server-sent events: one JSON object per data line)`),
    config: { call },
    onRequest: async (request) => auth(request),
    handler: async (request, reply) => {
      const accept = request.headers.accept ?? '';
      if (!accept.includes('text/event-stream')) {
        throw fail('not_acceptable', 'this call answers server-sent events: send Accept: text/event-stream');
      }
      const ctx = contextOf<C>(request, reply);
      await checkRefs(services, call, ctx);
      // HEAD (which Fastify adds to every GET) learns the stream would open, without holding one open.
      if (request.method === 'HEAD') {
        await open(ctx);
        return reply.type('text/event-stream; charset=utf-8').send();
      }
      const lease = await services.streams.admit(request.ip, ctx.token);
      let start: Awaited<ReturnType<StreamOpener<C>>>;
      try {
        start = await open(ctx);
      } catch (err) {
        await lease.release();
        throw err;
      }
      // Counted open from when it starts sending until it closes, whichever side ends it.
      const counted: StreamStart<C> = (stream) => {
        const cleanup = start(stream);
        services.metrics.streamOpen(call.path, 1);
        return () => {
          services.metrics.streamOpen(call.path, -1);
          cleanup?.();
        };
      };
      startSse(request, reply, streams, counted, lease);
      return reply;
    },
  });
}
