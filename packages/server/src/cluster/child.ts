/**
 * A process the supervisor started (cluster/supervisor.ts): an API process or the worker process, by the role it
 * was given, talking to the supervisor over its IPC channel.
 */
import { ConfigError, loadConfig } from '../config.js';
import { serve } from '../server.js';
import { parentChannel } from './ipc.js';
import { yieldToCandidates } from './priority.js';
import { ROLE_ENV, SLOT_ENV } from './supervisor.js';

async function main(): Promise<void> {
  const channel = parentChannel();
  const role = process.env[ROLE_ENV];
  if (!channel || (role !== 'api' && role !== 'worker')) {
    throw new Error(`this file is started by the supervisor (${ROLE_ENV}=api or worker, with an IPC channel)`);
  }
  // Before any thread is started, so the worker's threads inherit it too.
  if (role === 'worker') yieldToCandidates(true);
  const concurrency = Number(process.env.EXAMHALL_JUDGE_CONCURRENCY);
  await serve(loadConfig(), {
    seed: process.env.EXAMHALL_SEED === 'true',
    role,
    channel,
    judgeConcurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : undefined,
    // The API processes answer on one port: a scrape reads one of them, named by this label.
    name: `${role}-${process.env[SLOT_ENV] ?? '0'}`,
  });
}

main().catch((err: unknown) => {
  process.stderr.write(
    err instanceof ConfigError
      ? `${err.message}\n`
      : `Examhall ${process.env[ROLE_ENV] ?? ''} process failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
