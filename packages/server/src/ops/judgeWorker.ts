/**
 * A judge worker process's operations endpoints (`examhall judge-worker` with METRICS_PORT): /healthz, /readyz
 * (Redis answers) and /metrics with the process's own metrics and the jobs it judged. The worker answers no calls
 * otherwise, so the server is the small one of these three paths alone.
 */
import type { WorkerHandle } from '@examhall/judge';
import Fastify from 'fastify';
import { redisProbe } from './health.js';
import { JudgeWorkerMetrics, secondsSince } from './metrics.js';
import { opsRoutes } from './routes.js';

/** Reports each job `worker` takes and ends to `metrics`. */
export function watchJudgeWorker(worker: WorkerHandle['worker'], metrics: JudgeWorkerMetrics): void {
  const started = new Map<string, number>();
  const end = (id: string | undefined, verdict: string) => {
    if (id === undefined || !started.has(id)) return;
    metrics.ended(verdict, secondsSince(started.get(id) ?? 0));
    started.delete(id);
  };
  worker.on('active', (job) => {
    if (job.id === undefined) return;
    started.set(job.id, performance.now());
    metrics.started();
  });
  worker.on('completed', (job, result) => end(job.id, result.verdict));
  worker.on('failed', (job) => end(job?.id, 'failed'));
}

/** Serves the judge worker's endpoints on `port` until `close`. */
export async function serveJudgeWorkerOps(opts: {
  worker: WorkerHandle['worker'];
  redisUrl: string;
  host: string;
  port: number;
  metricsToken: string | undefined;
}): Promise<{ metrics: JudgeWorkerMetrics; address: string; close(): Promise<void> }> {
  const metrics = new JudgeWorkerMetrics();
  watchJudgeWorker(opts.worker, metrics);
  const redis = redisProbe(opts.redisUrl);
  const app = Fastify({ logger: false });
  let draining = false;
  opsRoutes(app, { metrics, probes: [redis], metricsToken: opts.metricsToken, draining: () => draining });
  const address = await app.listen({ port: opts.port, host: opts.host });
  return {
    metrics,
    address,
    async close() {
      draining = true;
      await app.close();
      await redis.close();
    },
  };
}
