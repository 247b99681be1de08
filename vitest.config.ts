import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSrc = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const judgeSrc = fileURLToPath(new URL('./packages/judge/src/index.ts', import.meta.url));
const importersSrc = fileURLToPath(new URL('./packages/importers/src/index.ts', import.meta.url));

// Unit and integration tests of every package; the browser journeys have their own config in e2e/.
export default defineConfig({
  resolve: {
    alias: { '@examhall/contract': contractSrc, '@examhall/judge': judgeSrc, '@examhall/importers': importersSrc },
  },
  test: {
    // A zone far from the server's UTC+8, so a result that leans on the machine's zone fails.
    env: { TZ: 'America/New_York' },
    // Two files at a time even on two cores (Vitest's default there is one): most files spend their time waiting
    // for PostgreSQL, a child server or a sandboxed program, and a second file keeps the machine busy meanwhile.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          exclude: ['packages/server/src/faults/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Each fault test runs a small cluster (API processes, judge workers, Redis, s3rver) and breaks a part of
          // it: after every other project, one file at a time, so the faults are the only load on the machine.
          name: 'faults',
          include: ['packages/server/src/faults/**/*.fault.test.ts'],
          environment: 'node',
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'importers',
          include: ['packages/importers/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      'packages/web',
      'packages/judge',
    ],
  },
});
