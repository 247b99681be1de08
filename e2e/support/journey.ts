import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { launchBrowser } from './browser.js';
import { startServer, type TestServer } from './server.js';

/** The most of the server's output a failed step prints (its end). */
const SERVER_TAIL_CHARS = 8_000;

/** The server and browser one journey file shares. */
export interface Journey {
  server: TestServer;
  browser: Browser;
}

/**
 * Starts a fresh server (with `env` added) and Chromium (with `browserArgs` added) before the file's journeys and stops both after.
 * `env` may be a function, called then, for settings known only once something else has started (another system the
 * server talks to, and which must know the server's address first).
 * Read the parts inside tests: they exist once `beforeAll` has run.
 */
export function useJourney(
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
  browserArgs: readonly string[] = [],
): Journey {
  const parts = {} as Journey;
  beforeAll(async () => {
    parts.server = await startServer(typeof env === 'function' ? await env() : env);
    parts.browser = await launchBrowser(browserArgs);
  });
  // A journey step that fails shows what the server said meanwhile (warnings and errors: the journeys log at warn).
  beforeEach(({ onTestFailed }) => {
    const from = parts.server?.output().length ?? 0;
    onTestFailed(() => {
      const said = parts.server?.output().slice(from).trim();
      if (said) console.error(`the server printed during this step:\n${said.slice(-SERVER_TAIL_CHARS)}`);
    });
  });
  afterAll(async () => {
    await parts.browser?.close();
    await parts.server?.stop();
  });
  return parts;
}
