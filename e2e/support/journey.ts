import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startServer, type TestServer } from './server.js';

/** The server and browser one journey file shares. */
export interface Journey {
  server: TestServer;
  browser: Browser;
}

/**
 * Starts a fresh server (with `env` added) and Chromium (with `browserArgs` added) before the file's journeys and stops both after.
 * Read the parts inside tests: they exist once `beforeAll` has run.
 */
export function useJourney(env: Record<string, string> = {}, browserArgs: readonly string[] = []): Journey {
  const parts = {} as Journey;
  beforeAll(async () => {
    parts.server = await startServer(env);
    parts.browser = await launchBrowser(browserArgs);
  });
  afterAll(async () => {
    await parts.browser?.close();
    await parts.server?.stop();
  });
  return parts;
}
