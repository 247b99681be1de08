import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSrc = fileURLToPath(new URL('../contract/src/index.ts', import.meta.url));

// Real sandboxes and real compilers: slow first compiles (Haskell, Rust, Go) need long timeouts.
export default defineConfig({
  resolve: { alias: { '@examhall/contract': contractSrc } },
  test: {
    name: 'judge',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // One file at a time: the hostile tests check that no box process is left on the host, which a
    // box of another file running at that moment (a slow compile on a loaded machine) would fail.
    fileParallelism: false,
  },
});
