import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat, exportQuestions, importFile } from '../../index.js';

const PROBLEM = {
  'problem.json': strToU8(
    JSON.stringify({
      title: '两数之和',
      time_limit_ms: 2000,
      memory_limit_mb: 128,
      languages: ['cpp', 'Python', 'java'],
      checker: 'float:0.001',
      cases: ['big', '1'],
      points: 20,
      difficulty: 3,
      tags: ['入门'],
      folder: ['编程', '基础'],
    }),
  ),
  'statement.md': strToU8('计算 **a+b**。\n\n输入两个整数。'),
  'samples/1.in': strToU8('1 2\n'),
  'samples/1.out': strToU8('3\n'),
  'samples/2.in': strToU8('2 2\n'),
  'samples/2.out': strToU8('4\n'),
  'cases/1.in': strToU8('5 6\n'),
  'cases/1.out': strToU8('11\n'),
  'cases/big.in': strToU8('1000000 1\n'),
  'cases/big.ans': strToU8('1000001\n'),
  'solution.cpp': strToU8('int main(){}'),
  'starter/python.py': strToU8('a, b = map(int, input().split())\n'),
};

describe('problem zip', () => {
  it('reads problem.json, the statement, samples, cases in the listed order, solution and starter code', async () => {
    const bytes = zipSync(PROBLEM);
    expect(detectFormat('p.zip', bytes)).toBe('problem_zip');
    const r = await importFile({ name: 'p.zip', bytes });
    expect(r.problems).toEqual([]);
    expect(r.questions).toHaveLength(1);
    expect(r.questions[0]).toMatchObject({
      title: '两数之和',
      points: 20,
      difficulty: 3,
      tags: ['入门'],
      folder: ['编程', '基础'],
      where: { file: 'problem.json' },
    });
    expect(r.questions[0]!.question).toEqual({
      kind: 'programming',
      content: {
        stem: '<p>计算 <strong>a+b</strong>。</p><p>输入两个整数。</p>',
        languages: ['cpp', 'python', 'java'],
        starter: { python: 'a, b = map(int, input().split())\n' },
        samples: [
          { input: '1 2\n', output: '3\n' },
          { input: '2 2\n', output: '4\n' },
        ],
        time_limit_ms: 2000,
        memory_limit_mb: 128,
      },
      key: {
        checker: 'float:0.001',
        cases: [
          { input: '1000000 1\n', output: '1000001\n', name: 'big' },
          { input: '5 6\n', output: '11\n', name: '1' },
        ],
        reference: { language: 'cpp', source: 'int main(){}' },
      },
    });
  });

  it('several problems, one folder each; a broken one is located by its files and the others import', async () => {
    const files: Record<string, Uint8Array> = {};
    for (const [k, v] of Object.entries(PROBLEM)) files[`a/${k}`] = v;
    files['b/problem.json'] = strToU8('{"languages": ["cpp"]');
    files['c/problem.json'] = strToU8('{"languages": ["cobol"]}');
    files['c/statement.html'] = strToU8('<p>x</p>');
    files['c/cases/1.in'] = strToU8('1');
    files['d/problem.json'] = strToU8('{"languages": ["c"]}');
    files['d/cases/1.in'] = strToU8('1');
    files['d/cases/1.out'] = strToU8('1');
    const r = await importFile({ name: 'set.zip', bytes: zipSync(files) });
    expect(r.questions.map((q) => q.title)).toEqual(['两数之和']);
    expect(r.problems.map((p) => [p.code, p.where.file])).toEqual([
      ['syntax', 'b/problem.json'],
      ['case_unpaired', 'c/cases/1.in'],
      ['language_unknown', 'c/problem.json'],
      ['package_file_missing', 'd/statement.html'],
    ]);
  });

  it('a case over the contract’s size is reported and the problem is not imported', async () => {
    const big = new Uint8Array(8_000_001).fill(0x31);
    const r = await importFile({
      name: 'p.zip',
      // Stored, not deflated: 8 MB of one digit would pack tighter than the zip checks allow.
      bytes: zipSync({ ...PROBLEM, 'cases/huge.in': [big, { level: 0 }], 'cases/huge.out': strToU8('1') }),
    });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.where.file, p.params.chars])).toEqual([
      ['case_too_large', 'cases/huge.in', 8_000_001],
    ]);
  });

  it('a zip whose entry escapes its folder is refused', async () => {
    const r = await importFile({ name: 'p.zip', bytes: zipSync({ ...PROBLEM, '../solution.cpp': strToU8('x') }) });
    expect(r.refused).toBe(true);
    expect(r.problems[0]!.code).toBe('zip_path_escape');
  });

  it('writes what it reads, and leaves out what is not a programming problem', async () => {
    const r = await importFile({ name: 'p.zip', bytes: zipSync(PROBLEM) });
    const qa = {
      ...r.questions[0]!,
      question: { kind: 'qa', content: { stem: 'x' }, key: {} },
    } as (typeof r.questions)[number];
    const out = await exportQuestions('problem_zip', [qa, r.questions[0]!]);
    expect(out.problems.map((p) => [p.code, p.where.element])).toEqual([['not_exported', 'question[1]']]);
    const back = await importFile({ name: 'back.zip', bytes: out.bytes });
    expect(back.questions.map(({ where: _w, ...d }) => d)).toEqual(r.questions.map(({ where: _w, ...d }) => d));
  });
});
