import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsxLoader } from '../test/processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs `npm run bench:exam -- ...args` from source; answers its exit code and output. */
function bench(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', tsxLoader, path.join(here, 'exam.ts'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('npm run bench:exam, its options', () => {
  it('lists its options with their defaults on --help', () => {
    const { code, out } = bench('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: npm run bench:exam -- \[options\]/);
    expect(out).toContain('--candidates VALUE (default 200)');
    expect(out).toContain('--no-assets\n');
    expect(out).toContain('--no-warm-up\n');
  });

  it('refuses a mistyped option or a value that is not a number with the reason and exit code 2, before any run', () => {
    const typo = bench('--candidats', '5');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("Unknown option '--candidats'");
    expect(typo.err).toContain('usage: npm run bench:exam');
    expect(typo.err).not.toMatch(/\n\s+at /);

    const nan = bench('--candidates', 'many');
    expect(nan.code).toBe(2);
    expect(nan.err).toContain('--candidates must be a number of at least 1, not many');
  });
});
