import { describe, expect, it } from 'vitest';
import { judge } from './judge.js';
import { availability } from './languages/index.js';
import type { JudgeProgress, JudgeTask } from './types.js';

const AB = [
  { input: '1 2\n', expected: '3\n' },
  { input: '10 20\n', expected: '30\n' },
];
const base = { timeLimitMs: 1000, memoryLimitMb: 64 } as const;
const c = (source: string, extra: Partial<JudgeTask> = {}): JudgeTask => ({
  language: 'c',
  source,
  cases: AB,
  ...base,
  ...extra,
});

describe('verdicts', () => {
  it('AC with time and memory per case', async () => {
    const r = await judge(c('#include <stdio.h>\nint main(){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);}'));
    expect(r.verdict).toBe('AC');
    for (const k of r.cases) {
      expect(k.memory_kb).toBeGreaterThan(100);
      expect(k.time_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('WA', async () => {
    const r = await judge({
      ...base,
      language: 'python',
      source: 'a,b=map(int,input().split())\nprint(a+b+1)\n',
      cases: AB,
    });
    expect(r.verdict).toBe('WA');
    expect(r.cases[0]).toMatchObject({ verdict: 'WA', message: 'token 1: expected "3", got "4"' });
  });

  it('TLE for an infinite loop, with the CPU time measured', async () => {
    const r = await judge(c('int main(){volatile unsigned long i=0;for(;;)i++;}', { cases: AB.slice(0, 1) }));
    expect(r.verdict).toBe('TLE');
    expect(r.cases[0]!.time_ms).toBeGreaterThanOrEqual(1000);
  });

  it('MLE for a memory hog', async () => {
    const hog =
      '#include <stdlib.h>\n#include <string.h>\nint main(){for(int i=0;i<64;i++){char*p=malloc(16<<20);if(!p)return 3;memset(p,1,16<<20);}return 0;}';
    const r = await judge(c(hog, { cases: AB.slice(0, 1) }));
    expect(r.verdict).toBe('MLE');
  });

  it('RE for a crash and for a non-zero exit', async () => {
    const crash = await judge(c('int main(){volatile int*p=0;return *p;}', { cases: AB.slice(0, 1) }));
    expect(crash.verdict).toBe('RE');
    expect(crash.cases[0]!.message).toMatch(/signal 11/);
    const exit = await judge({ ...base, language: 'python', source: 'raise SystemExit(3)\n', cases: AB.slice(0, 1) });
    expect(exit.cases[0]).toMatchObject({ verdict: 'RE', message: 'exit code 3' });
  });

  it('CE with the compiler messages', async () => {
    const r = await judge(c('int main( { return 0 }'));
    expect(r.verdict).toBe('CE');
    expect(r.cases).toEqual([]);
    expect(r.compileOutput).toMatch(/error/);
  });

  it('OLE for 100 MB of output', async () => {
    const r = await judge(
      c(
        '#include <stdio.h>\n#include <string.h>\nint main(){static char b[1<<20];memset(b,65,sizeof b);for(int i=0;i<100;i++)fwrite(b,1,sizeof b,stdout);}',
        {
          cases: AB.slice(0, 1),
          timeLimitMs: 5000,
        },
      ),
    );
    expect(r.verdict).toBe('OLE');
  });

  it('SE (not a crash of the caller) for a bad checker name', async () => {
    const r = await judge(c('int main(){}', { checker: 'nonsense' }));
    expect(r.verdict).toBe('SE');
    expect(r.message).toMatch(/unknown checker/);
  });
});

describe('judging', () => {
  it('sends a compiled event, then one event per case in case order', async () => {
    const events: JudgeProgress[] = [];
    const cases = Array.from({ length: 6 }, (_, i) => ({ input: `${i} ${i}\n`, expected: `${2 * i}\n` }));
    const r = await judge(
      { ...base, language: 'bash', source: 'read a b\nsleep 0.$((RANDOM % 3))\necho $((a+b))\n', cases },
      (e) => events.push(e),
    );
    expect(r.verdict).toBe('AC');
    expect(events[0]).toMatchObject({ type: 'compiled', ok: true });
    expect(events.slice(1).map((e) => (e.type === 'case' ? e.result.index : -1))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops at the first failure when asked', async () => {
    const cases = [
      { input: '1 1\n', expected: '2\n' },
      { input: '2 2\n', expected: '5\n' },
      ...Array.from({ length: 6 }, () => ({ input: '1 1\n', expected: '2\n' })),
    ];
    const task: JudgeTask = {
      ...base,
      language: 'bash',
      source: 'read a b\necho $((a+b))\n',
      cases,
      stopOnFailure: true,
    };
    const r = await judge(task);
    expect(r.verdict).toBe('WA');
    expect(r.cases.map((k) => k.verdict)).toEqual(['AC', 'WA']);
    const all = await judge({ ...task, stopOnFailure: false });
    expect(all.cases).toHaveLength(8);
  });

  it('compiles once per source: the second task uses the cache', async () => {
    const source = `#include <stdio.h>\nint main(){puts("${Date.now()}");}`;
    const first: JudgeProgress[] = [];
    const second: JudgeProgress[] = [];
    await judge(c(source, { cases: [{ input: '' }] }), (e) => first.push(e));
    await judge(c(source, { cases: [{ input: '' }] }), (e) => second.push(e));
    expect(first[0]).toMatchObject({ type: 'compiled', cached: false });
    expect(second[0]).toMatchObject({ type: 'compiled', cached: true });
  });

  it('returns outputs for a custom-input run without expected output', async () => {
    const r = await judge({
      ...base,
      language: 'python',
      source: 'print(input()[::-1])\n',
      cases: [{ input: 'abc\n' }],
      returnOutput: true,
    });
    expect(r.cases[0]).toMatchObject({ verdict: 'AC', output: 'cba\n' });
  });

  it('uses the float and unordered-lines checkers', async () => {
    const f = await judge({
      ...base,
      language: 'python',
      source: 'print(1/3)\n',
      cases: [{ input: '', expected: '0.333333\n' }],
      checker: 'float:1e-6',
    });
    expect(f.verdict).toBe('AC');
    const l = await judge({
      ...base,
      language: 'bash',
      source: 'printf "b\\na\\n"\n',
      cases: [{ input: '', expected: 'a\nb\n' }],
      checker: 'lines',
    });
    expect(l.verdict).toBe('AC');
    const e = await judge({
      ...base,
      language: 'bash',
      source: 'printf "3 \\n"\n',
      cases: [{ input: '', expected: '3\n' }],
      checker: 'exact',
    });
    expect(e.verdict).toBe('WA');
  });

  it('runs a custom checker program in the sandbox', async () => {
    // Accepts any output congruent to the expected one modulo 10.
    const checker = {
      kind: 'custom' as const,
      language: 'python' as const,
      source:
        'import sys\ni,o,e=(open(p).read() for p in sys.argv[1:4])\nok=int(o)%10==int(e)%10\nprint("ok" if ok else "off")\nsys.exit(0 if ok else 1)\n',
    };
    const cases = [{ input: '1 2\n', expected: '3\n' }];
    const ok = await judge({ ...base, language: 'bash', source: 'echo 13\n', cases, checker });
    expect(ok.cases[0]).toMatchObject({ verdict: 'AC', message: 'ok' });
    const wa = await judge({ ...base, language: 'bash', source: 'echo 14\n', cases, checker });
    expect(wa.cases[0]).toMatchObject({ verdict: 'WA', message: 'off' });
    const broken = await judge({
      ...base,
      language: 'bash',
      source: 'echo 13\n',
      cases,
      checker: { ...checker, source: 'import os\nos.abort()\n' },
    });
    expect(broken.verdict).toBe('SE');
  });

  it('reports a missing toolchain as SE with a clear message', async () => {
    const julia = await availability('julia');
    if (julia.available) {
      const r = await judge({
        ...base,
        language: 'julia',
        source: 'println(1)\n',
        cases: [{ input: '', expected: '1' }],
        timeLimitMs: 10_000,
        memoryLimitMb: 512,
      });
      expect(r.verdict).toBe('AC');
      return;
    }
    const r = await judge({
      ...base,
      language: 'julia',
      source: 'println(1)\n',
      cases: [{ input: '', expected: '1' }],
    });
    expect(r).toMatchObject({
      verdict: 'SE',
      message: expect.stringContaining('toolchain not installed on this host'),
    });
  });
});
