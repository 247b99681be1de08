import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'similarity', 'fixtures');

describe('examhall similarity', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  /** A folder holding copies of the given fixture files. */
  function folder(language: string, files: string[]): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-sim-'));
    dirs.push(dir);
    for (const f of files) fs.copyFileSync(path.join(FIXTURES, language, f), path.join(dir, f));
    return dir;
  }

  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      {},
      (t) => out.push(t),
      (t) => err.push(t),
    );
    return { code, out: out.join(''), err: err.join('') };
  }

  it('prints every pair of files with its score as JSON, highest first', async () => {
    const dir = folder('java', ['Original.java', 'Copied.java', 'Independent.java', 'SameIdea.java']);
    const result = await cli(['similarity', '--language', 'java', dir, '--json']);
    expect(result).toMatchObject({ code: 0, err: '' });
    const { pairs } = JSON.parse(result.out) as { pairs: { a: string; b: string; score: number }[] };
    expect(Object.keys(JSON.parse(result.out) as object)).toEqual(['pairs']);
    expect(pairs).toHaveLength(6);
    expect(pairs[0]).toEqual({ a: 'Copied.java', b: 'Original.java', score: expect.any(Number) });
    expect(pairs[0]!.score).toBeGreaterThanOrEqual(0.8);
    for (const p of pairs.slice(1)) {
      expect(Object.keys(p)).toEqual(['a', 'b', 'score']);
      expect(p.score).toBeLessThanOrEqual(0.5);
      expect(p.score).toBeGreaterThanOrEqual(0);
    }
    expect(pairs.map((p) => p.score)).toEqual(pairs.map((p) => p.score).sort((x, y) => y - x));
    const names = new Set(pairs.map((p) => [p.a, p.b].sort().join('|')));
    expect(names.size).toBe(6);
  });

  it('leaves out the starter code, and the starter file when it lies in the folder', async () => {
    const dir = folder('python', ['original.py', 'copied.py', 'independent.py', 'starter.py']);
    const starter = path.join(dir, 'starter.py');
    const without = JSON.parse((await cli(['similarity', '--language', 'python', dir, '--json'])).out) as {
      pairs: { a: string; b: string; score: number }[];
    };
    expect(without.pairs).toHaveLength(6);
    const withStarter = await cli(['similarity', '--language', 'Python', '--starter', starter, dir, '--json']);
    expect(withStarter.code).toBe(0);
    const { pairs } = JSON.parse(withStarter.out) as { pairs: { a: string; b: string; score: number }[] };
    expect(pairs[0]).toMatchObject({ a: 'copied.py', b: 'original.py' });
    expect(pairs.map((p) => `${p.a}~${p.b}`).sort()).toEqual([
      'copied.py~independent.py',
      'copied.py~original.py',
      'independent.py~original.py',
    ]);
    const score = (a: string, b: string, list: typeof pairs) =>
      list.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))!.score;
    expect(score('independent.py', 'original.py', pairs)).toBeLessThan(
      score('independent.py', 'original.py', without.pairs),
    );
  });

  it('prints a table and the groups of three or more without --json', async () => {
    const dir = folder('cpp', ['original.cpp', 'copied.cpp', 'independent.cpp']);
    const source = fs.readFileSync(path.join(dir, 'original.cpp'), 'utf8');
    fs.writeFileSync(path.join(dir, 'again.cpp'), source.replace(/\bmerged\b/g, 'acc').replace(/\n\s*/g, '\n'));
    const result = await cli(['similarity', '--language', 'C++', dir]);
    expect(result.code).toBe(0);
    expect(result.out).toContain('4 file(s), 6 pair(s)');
    expect(result.out).toMatch(/^ {2}1\.00 {2}again\.cpp +original\.cpp$/m);
    expect(result.out).toContain('Group of 3: again.cpp, copied.cpp, original.cpp');
  });

  it('refuses an unknown language, a missing folder, a missing starter and missing arguments', async () => {
    const dir = folder('cpp', ['original.cpp']);
    expect(await cli(['similarity', '--language', 'cobol', dir, '--json'])).toMatchObject({
      code: 2,
      out: '',
      err: expect.stringContaining('Unknown language cobol'),
    });
    expect(await cli(['similarity', '--language', 'cpp', path.join(dir, 'nope'), '--json'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('ENOENT'),
    });
    expect(await cli(['similarity', '--language', 'cpp', path.join(dir, 'original.cpp')])).toMatchObject({
      code: 2,
      err: expect.stringContaining('not a folder'),
    });
    expect(await cli(['similarity', '--language', 'cpp', '--starter', path.join(dir, 'nope.cpp'), dir])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--starter'),
    });
    expect(await cli(['similarity', dir])).toMatchObject({ code: 2, err: expect.stringContaining('needs a language') });
    expect(await cli(['similarity', '--language', 'cpp', '--frobnicate', dir])).toMatchObject({ code: 2 });
  });

  it('answers an empty pair list for a folder with one file', async () => {
    const dir = folder('cpp', ['original.cpp']);
    expect(await cli(['similarity', '--language', 'cpp', dir, '--json'])).toEqual({
      code: 0,
      out: '{"pairs":[]}\n',
      err: '',
    });
  });
});
