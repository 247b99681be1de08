import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'judge-cli-'));
  await writeFile(join(dir, 'ab.py'), 'a, b = map(int, input().split())\nprint(a + b)\n');
  for (const [n, i, o] of [
    ['1', '1 2', '3'],
    ['2', '5 5', '10'],
    ['10', '-1 1', '0'],
  ] as const) {
    await writeFile(join(dir, `${n}.in`), `${i}\n`);
    await writeFile(join(dir, `${n}.out`), `${o}\n`);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(args, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

describe('examhall-judge', () => {
  it('languages prints the registry with availability', async () => {
    const { code, out } = await run(['languages']);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { sandbox: { ready: boolean }; languages: { id: string; available: boolean }[] };
    expect(parsed.sandbox.ready).toBe(true);
    expect(parsed.languages).toHaveLength(21);
    expect(parsed.languages.find((l) => l.id === 'c')?.available).toBe(true);
  });

  it('test judges a source against the *.in/*.out pairs of a directory', async () => {
    const { code, out } = await run([
      'test',
      '--language',
      'python',
      '--source',
      join(dir, 'ab.py'),
      '--tests',
      dir,
      '--time-limit',
      '2000',
    ]);
    const result = JSON.parse(out) as { verdict: string; cases: { name: string; verdict: string }[] };
    expect(code).toBe(0);
    expect(result.verdict).toBe('AC');
    expect(result.cases.map((c) => c.name)).toEqual(['1', '2', '10']);
  });

  it('test reports WA with a checker and refuses bad arguments', async () => {
    await writeFile(join(dir, 'wrong.py'), 'print(3)\n');
    const wa = await run([
      'test',
      '--language',
      'python',
      '--source',
      join(dir, 'wrong.py'),
      '--tests',
      dir,
      '--checker',
      'exact',
    ]);
    expect(wa.code).toBe(1);
    expect(JSON.parse(wa.out)).toMatchObject({ verdict: 'WA' });
    expect((await run(['test', '--language', 'cobol', '--source', 'x', '--tests', dir])).code).toBe(2);
    expect((await run(['test', '--language', 'c', '--source', 'x', '--tests', dir, '--checker', 'fuzzy'])).code).toBe(
      2,
    );
    expect((await run(['nonsense'])).code).toBe(2);
  });

  it('does not follow a symlinked test file', async () => {
    const linked = await mkdtemp(join(tmpdir(), 'judge-cli-link-'));
    await writeFile(join(linked, '1.in'), '1 2\n');
    await symlink('/etc/shadow', join(linked, '1.out'));
    const { code } = await run(['test', '--language', 'python', '--source', join(dir, 'ab.py'), '--tests', linked]);
    expect(code).not.toBe(0);
    await rm(linked, { recursive: true, force: true });
  });
});
