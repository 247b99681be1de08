import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '@examhall/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareSources,
  fingerprint,
  fragments,
  groups,
  rankPairs,
  starterHashes,
  tokenize,
  type SimilarPair,
} from './index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const read = (language: string, file: string) => fs.readFileSync(path.join(FIXTURES, language, file), 'utf8');

/** Per language: the original, its disguised copy, two solutions written independently, and the starter code. */
const SAMPLES: {
  language: LanguageId;
  dir: string;
  original: string;
  copy: string;
  others: string[];
  starter: string;
}[] = [
  {
    language: 'cpp',
    dir: 'cpp',
    original: 'original.cpp',
    copy: 'copied.cpp',
    others: ['independent.cpp', 'same_idea.cpp'],
    starter: 'starter.cpp',
  },
  {
    language: 'java',
    dir: 'java',
    original: 'Original.java',
    copy: 'Copied.java',
    others: ['Independent.java', 'SameIdea.java'],
    starter: 'Starter.java',
  },
  {
    language: 'python',
    dir: 'python',
    original: 'original.py',
    copy: 'copied.py',
    others: ['independent.py', 'same_idea.py'],
    starter: 'starter.py',
  },
];

const scoreOf = (pairs: SimilarPair[], a: number, b: number) =>
  pairs.find((p) => p.a === Math.min(a, b) && p.b === Math.max(a, b))?.score ?? 0;

describe.each(SAMPLES)('similarity of $language samples', (s) => {
  const files = [s.original, s.copy, ...s.others];
  const sources = files.map((f) => read(s.dir, f));

  it.each([
    ['without', undefined],
    ['with', read(s.dir, s.starter)],
  ])('%s the starter code: the disguised copy scores at least 0.8, independent solutions at most 0.5', (_, starter) => {
    const { pairs } = compareSources(sources, s.language, starter);
    expect(scoreOf(pairs, 0, 1)).toBeGreaterThanOrEqual(0.8);
    for (let a = 0; a < files.length; a++) {
      for (let b = Math.max(a + 1, 2); b < files.length; b++) {
        expect(scoreOf(pairs, a, b), `${files[a]} ~ ${files[b]}`).toBeLessThanOrEqual(0.5);
      }
    }
    // Ranked best first: the copy leads.
    expect(pairs[0]).toMatchObject({ a: 0, b: 1 });
  });
});

describe('tokenizer', () => {
  it('reads renamed, reformatted and commented code as the same tokens, with positions in the source', () => {
    const a =
      'int total(int n) {\n  int s = 0; // running sum\n  for (int i = 0; i < n; i++) s += i;\n  return s;\n}\n';
    const b =
      '/* sum */ int   sumUpTo( int count )\n{\n    int acc=10;\n    for(int k=0;k<count;k++)\n        acc+=k;\n    return acc;\n}';
    const texts = (src: string) => tokenize(src, 'c').map((t) => t.text);
    expect(texts(a)).toEqual(texts(b));
    expect(texts(a).slice(0, 6)).toEqual(['int', 'V', '(', 'int', 'V', ')']);
    expect(tokenize(b, 'c')[1]).toMatchObject({ text: 'V', line: 1, col: 17, endLine: 1, endCol: 23 });
  });

  it.each<[LanguageId, string, string[]]>([
    ['python', 'x = "a # b"  # note\n"""doc"""\ny = x\n', ['V', '=', 'S', 'V', '=', 'V']],
    ['ruby', '=begin\nold\n=end\n@x = 1 # c\n', ['V', '=', 'N']],
    ['lua', '--[[ block\n]] local x = 1 -- c\n', ['local', 'V', '=', 'N']],
    ['haskell', "{- a -} f x' = x' -- c\n", ['V', 'V', '=', 'V']],
    ['pascal', '{ c } (* d *) BEGIN WriteLn(a); End.', ['begin', 'writeln', '(', 'V', ')', ';', 'end', '.']],
    ['basic', "REM c\nPRINT a ' c\n", ['print', 'V']],
    ['ocaml', '(* c *) let rec f x = x', ['let', 'rec', 'V', 'V', '=', 'V']],
    ['go', 'x := `raw\nstring` // c\n', ['V', ':=', 'S']],
    [
      'rust',
      "fn f<'a>(x: &'a str) {}",
      ['fn', 'V', '<', "'", 'V', '>', '(', 'V', ':', '&', "'", 'V', 'V', ')', '{', '}'],
    ],
  ])('drops the comments of %s', (language, source, expected) => {
    expect(tokenize(source, language).map((t) => t.text)).toEqual(expected);
  });
});

describe('starter code', () => {
  const starter = read('python', 'original.py').split('\n\ndef flood')[0]!;
  const ownA = `${starter}\n\ndef main():\n    rows, cols, grid = read_grid()\n    total = 0\n    for r in range(rows):\n        total += grid[r].count('#')\n    print(total, rows * cols - total)\n\n\nmain()\n`;
  const ownB = `${starter}\n\ndef solve():\n    best = 0\n    h, w, g = read_grid()\n    for line in g:\n        run = 0\n        for ch in line:\n            run = run + 1 if ch == '#' else 0\n            best = max(best, run)\n    print(best)\n\n\nsolve()\n`;

  it('is left out: two submissions sharing only the starter code score low', () => {
    expect(compareSources([ownA, ownB], 'python').pairs[0]!.score).toBeGreaterThan(0.5);
    const { pairs, fingerprints } = compareSources([ownA, ownB], 'python', starter);
    expect(pairs[0]?.score ?? 0).toBeLessThan(0.2);
    // Fragments never cover the starter code either.
    const lastStarterLine = starter.split('\n').length;
    for (const f of fragments(fingerprints[0]!, fingerprints[1]!))
      expect(f.a.start_line).toBeGreaterThan(lastStarterLine);
  });

  it('that is all a submission holds scores 0 against everything', () => {
    const { pairs, fingerprints } = compareSources([starter, read('python', 'original.py')], 'python', starter);
    expect(fingerprints[0]!.hashes.size).toBe(0);
    expect(pairs).toEqual([]);
  });
});

describe('groups', () => {
  it('joins three or more submissions linked by strong pairs, and leaves pairs and weak links out', () => {
    const pair = (a: number, b: number, score: number): SimilarPair => ({
      a,
      b,
      score,
      matched: 1,
      share_a: score,
      share_b: score,
    });
    const found = groups([
      pair(0, 1, 0.9),
      pair(1, 2, 0.75),
      pair(3, 4, 0.95),
      pair(2, 5, 0.35),
      pair(6, 7, 0.8),
      pair(7, 8, 0.8),
      pair(6, 8, 0.85),
      pair(8, 9, 0.7),
    ]);
    expect(found).toEqual([
      { members: [6, 7, 8, 9], pairs: 4, max_score: 0.85 },
      { members: [0, 1, 2], pairs: 2, max_score: 0.9 },
    ]);
  });

  it('finds the copies of one original among real submissions', () => {
    const original = read('cpp', 'original.cpp');
    const secondCopy = original
      .replace(/\bmerged\b/g, 'out')
      .replace(/\bitems\b/g, 'list')
      .replace(/\n\s*/g, '\n');
    const sources = [
      read('cpp', 'independent.cpp'),
      original,
      read('cpp', 'same_idea.cpp'),
      read('cpp', 'copied.cpp'),
      secondCopy,
    ];
    const { pairs } = compareSources(sources, 'cpp');
    expect(groups(pairs)).toEqual([{ members: [1, 3, 4], pairs: 3, max_score: expect.any(Number) }]);
  });
});

describe('fragments', () => {
  const a = [
    '#include <cstdio>',
    '',
    'long long gcd(long long a, long long b) {',
    '    while (b != 0) {',
    '        long long t = a % b;',
    '        a = b;',
    '        b = t;',
    '    }',
    '    return a;',
    '}',
    '',
    'int main() {',
    '    long long x, y;',
    '    scanf("%lld %lld", &x, &y);',
    '    printf("%lld\\n", x / gcd(x, y) * y);',
    '}',
  ].join('\n');
  const b = [
    '#include <cstdio>',
    'int main(void)',
    '{',
    '    int n; long long acc = 0;',
    '    scanf("%d", &n);',
    '    for (int i = 0; i < n; i++) { long long v; scanf("%lld", &v); acc = divisor(acc, v); }',
    '    printf("%lld\\n", acc);',
    '    return 0;',
    '}',
    '',
    '// Euclid',
    'long long divisor(long long p, long long q)',
    '{',
    '    while (q != 0)',
    '    {',
    '        long long r = p % q;',
    '        p = q;',
    '        q = r;',
    '    }',
    '    return p;',
    '}',
  ].join('\n');

  it('points at the lines of the shared function on both sides', () => {
    const { fingerprints } = compareSources([a, b], 'c');
    expect(fragments(fingerprints[0]!, fingerprints[1]!)).toEqual([
      {
        a: { start_line: 3, start_col: 1, end_line: 10, end_col: 1 },
        b: { start_line: 12, start_col: 1, end_line: 21, end_col: 1 },
        tokens: 41,
      },
    ]);
  });
});

describe('ranking by the inverted index', () => {
  it('counts the same matches as comparing every pair of fingerprint sets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }), { maxLength: 12 }),
        (sets) => {
          const docs = sets.map((s) => ({ hashes: new Set(s) }));
          const expected: SimilarPair[] = [];
          for (let i = 0; i < docs.length; i++) {
            for (let j = i + 1; j < docs.length; j++) {
              const matched = [...docs[i]!.hashes].filter((h) => docs[j]!.hashes.has(h)).length;
              const [sa, sb] = [docs[i]!.hashes.size, docs[j]!.hashes.size];
              if (matched > 0)
                expected.push({
                  a: i,
                  b: j,
                  matched,
                  score: matched / Math.min(sa, sb),
                  share_a: matched / sa,
                  share_b: matched / sb,
                });
            }
          }
          expected.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
          expect(rankPairs(docs)).toEqual(expected);
        },
      ),
    );
  });

  it('keeps pairs at or above a minimum score only', () => {
    const skip = starterHashes(undefined, 'python');
    const docs = ['original.py', 'copied.py', 'independent.py'].map((f) =>
      fingerprint(read('python', f), 'python', skip),
    );
    expect(rankPairs(docs, 0.5).map((p) => [p.a, p.b])).toEqual([[0, 1]]);
  });
});

describe('fragments rarest first', () => {
  // What every candidate writes (reading the grid) comes first in the code; what only this pair wrote, after it.
  const common = [
    'int read_grid(int rows, int cols, char grid[64][64]) {',
    '    for (int r = 0; r < rows; r++) { for (int c = 0; c < cols; c++) { scanf(" %c", &grid[r][c]); } }',
    '    return rows * cols;',
    '}',
  ].join('\n');
  const rare = [
    'int flood(char grid[64][64], int r, int c, int rows, int cols) {',
    "    if (r < 0 || c < 0 || r >= rows || c >= cols || grid[r][c] != '#') return 0;",
    "    grid[r][c] = '.';",
    '    return 1 + flood(grid, r + 1, c, rows, cols) + flood(grid, r - 1, c, rows, cols)',
    '             + flood(grid, r, c + 1, rows, cols) + flood(grid, r, c - 1, rows, cols);',
    '}',
  ].join('\n');
  const own = (n: number) =>
    `${common}\n\nint main(void) {\n    char g[64][64];\n    int cells = read_grid(${n}, ${n}, g);\n    printf("%d\\n", cells * ${n});\n    while (cells > ${n}) cells /= 2;\n    return cells;\n}\n`;
  const copy = `${common}\n\n${rare}\n`;

  it('lists the fragment fewer submissions hold first, and in the code order without the counts', () => {
    const other = `${common}\n\nstatic const char *names[] = { "north", "south" };\n\n${rare}\n`;
    const { fingerprints, rarity } = compareSources([copy, other, own(3), own(5), own(7)], 'c');
    const inOrder = fragments(fingerprints[0]!, fingerprints[1]!);
    const rarest = fragments(fingerprints[0]!, fingerprints[1]!, rarity);
    expect(inOrder).toHaveLength(2);
    expect(inOrder[0]!.a.start_line).toBe(1);
    expect(rarest.map((f) => f.a.start_line)).toEqual([6, 1]);
    expect(new Set(rarest)).toEqual(new Set(inOrder));
  });
});
