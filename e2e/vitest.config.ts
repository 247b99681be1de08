import { defineConfig } from 'vitest/config';

// Browser journeys against the built server and web app; one file at a time, since each starts a server and a browser
// and several check how soon a page answers.
export default defineConfig({
  test: {
    name: 'e2e',
    // A zone far from the server's UTC+8, so nothing leans on the machine's zone.
    env: { TZ: 'America/New_York' },
    include: ['e2e/**/*.test.ts'],
    // Fails a journey whose pages report a Content-Security-Policy violation.
    setupFiles: ['e2e/support/csp.ts'],
    environment: 'node',
    fileParallelism: false,
    // A page that loads its code first answers later than Vitest's default poll of 1 s on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
