/**
 * Graceful shutdown of a server process: readiness turns 503 (balancers stop sending), the port stops taking
 * connections, open event streams end cleanly (browsers' EventSource reconnects, to another process), requests
 * in flight finish within the grace period (then their connections are cut), periodic tasks, job runners and
 * judge waits stop (the app's onClose hooks), and the database and Redis connections close last.
 */
import type { FastifyInstance } from 'fastify';

/** What a shutdown stops, in order. */
export interface ShutdownParts {
  app: FastifyInstance;
  /** Marks the app as stopping (readiness 503). */
  drain(): void;
  /** Closes what the app was built on (database, Redis, queues). */
  closeRuntime(): Promise<void>;
  /** How long requests in flight may take to finish, ms. */
  graceMs: number;
  /**
   * False under the supervisor: Ctrl-C reaches the whole process group and the supervisor passes its own signal
   * on, so a second signal is the same stop, not a wish to stop at once (the supervisor ends a process that
   * outlives its grace).
   */
  secondSignalExits?: boolean;
}

/** Stops the server gracefully; resolves with the exit code (0, or 1 when the grace period ran out). */
export async function shutdown(parts: ShutdownParts, signal: string): Promise<number> {
  const { app } = parts;
  app.log.info({ signal, graceMs: parts.graceMs }, 'shutting down: finishing requests in flight');
  parts.drain();
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    app.log.warn('requests still in flight after the grace period: cutting their connections');
    app.server.closeAllConnections();
  }, parts.graceMs);
  timer.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
  await parts.closeRuntime();
  app.log.info('shut down');
  return cut ? 1 : 0;
}

/**
 * Runs `shutdown` on the first SIGTERM or SIGINT and exits with its code; a second signal exits at once (unless
 * `secondSignalExits` is false).
 */
export function shutdownOnSignals(parts: ShutdownParts): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (parts.secondSignalExits === false) return;
      parts.app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    shutdown(parts, signal).then(
      (code) => process.exit(code),
      (err: unknown) => {
        parts.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
