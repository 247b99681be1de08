/**
 * The operations endpoints at the server's root, outside the API prefix and the catalogue (load balancers and
 * Prometheus call them, not clients): /healthz (the process is alive), /readyz (its parts answer; 503 naming
 * the failing ones, and while it shuts down) and /metrics (Prometheus text; a bearer token or loopback only).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../http/errorHandler.js';
import { readiness, type Probe } from './health.js';
import type { Metrics } from './metrics.js';

/** What the endpoints answer from. */
export interface OpsOptions {
  /** What /metrics answers with (an app's metrics, or a judge worker's). */
  metrics: Pick<Metrics, 'scrape'>;
  probes: readonly Probe[];
  /** The bearer token /metrics asks for; without one only loopback callers (not through a proxy) get it. */
  metricsToken: string | undefined;
  /** True once the process stopped taking work (readiness answers 503 so balancers move on). */
  draining(): boolean;
}

/** Paths of the endpoints. */
export const OPS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether `request` may read the metrics. */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), token);
  }
  // The socket's own address: behind a proxy on this host every request comes from loopback, so a forwarded
  // one is refused (such a set-up sets METRICS_TOKEN).
  return LOOPBACK.has(request.socket.remoteAddress ?? '') && request.headers['x-forwarded-for'] === undefined;
}

/** Registers /healthz, /readyz and /metrics on the root of `app`. */
export function opsRoutes(app: FastifyInstance, opts: OpsOptions): void {
  const noStore = { 'cache-control': 'no-store' };
  // Not part of the API: kept out of the OpenAPI document.
  const hidden = { schema: { hide: true } };
  app.get(OPS_PATHS.health, hidden, async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));

  app.get(OPS_PATHS.ready, hidden, async (_request, reply) => {
    if (opts.draining()) return reply.code(503).headers(noStore).send({ status: 'draining', failing: [], parts: {} });
    const { ready, parts } = await readiness(opts.probes);
    const failing = Object.entries(parts)
      .filter(([, s]) => !s.ok)
      .map(([name]) => name);
    return reply
      .code(ready ? 200 : 503)
      .headers(noStore)
      .send({ status: ready ? 'ready' : 'not_ready', failing, parts });
  });

  app.get(OPS_PATHS.metrics, hidden, async (request, reply) => {
    if (!mayScrape(request, opts.metricsToken)) {
      return opts.metricsToken
        ? sendError(reply, 401, 'not_logged_in', 'metrics need Authorization: Bearer METRICS_TOKEN')
        : sendError(reply, 403, 'forbidden', 'metrics are served to loopback callers only (or set METRICS_TOKEN)');
    }
    const { text, contentType } = await opts.metrics.scrape();
    return reply.type(contentType).headers(noStore).send(text);
  });
}
