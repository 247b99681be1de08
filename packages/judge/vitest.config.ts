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
  },
});
