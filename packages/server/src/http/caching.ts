/**
 * No shared or browser cache keeps an answer made for one caller: every answer of a call that needs a token
 * (candidate, staff, phone, integration) carries `Cache-Control: no-store`, its errors included, since those
 * answers hold personal data (scores, phones, answers, pictures' links) and a proxy or a browser shared by several
 * people would otherwise be free to keep them. Public calls (the site settings, the clock) and everything that is
 * no catalogue call (the web app's files, the bank's pictures, face models, storage) keep the caching they set.
 */
import type { CallDef } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';

/** The value on every authenticated answer. */
export const NO_STORE = 'no-store';

/** True when a call's answers are for one caller only. */
export function answersArePersonal(call: Pick<CallDef, 'auth' | 'redirect'>): boolean {
  // A sign-in step (`redirect`) needs no token, but answers with the state of the browser that took it.
  return call.auth !== 'public' || call.redirect === true;
}

/**
 * Registers the rule for every route of `app`, deciding from the catalogue entry a route carries in its config.
 * An event stream writes its own head (http/sse.ts), with the same value.
 */
export function noStoreForCallers(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const call = (request.routeOptions.config as { call?: CallDef } | undefined)?.call;
    if (call && answersArePersonal(call)) reply.header('cache-control', NO_STORE);
    done(null, payload);
  });
}
