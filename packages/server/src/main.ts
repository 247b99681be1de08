#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config.js';
import { supervise } from './cluster/supervisor.js';
import { unsupportedNode } from './nodeVersion.js';
import { serve } from './server.js';

/**
 * `npm start`'s server: the embedded defaults (or the configured parts), the demo exam on an empty database. With
 * PROCESSES above 1 (the default: one per core) a supervisor runs the API processes and a worker process; with 1,
 * or CLUSTER=true (where each process is one of many the operators run), everything runs in this process.
 */
async function main(): Promise<void> {
  const refusal = unsupportedNode();
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (!config.cluster && config.processes > 1) await supervise(config, { seed: true, processes: config.processes });
  else await serve(config, { seed: !config.cluster });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Examhall failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
