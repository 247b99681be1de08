#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config.js';
import { serve } from './server.js';

/** `npm start`'s server: the embedded defaults (or the configured parts), the demo exam on an empty database. */
async function main(): Promise<void> {
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
  await serve(config, { seed: !config.cluster });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Examhall failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
