import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { judge } from './judge.js';
import { Semaphore } from './limit.js';
import { runInSandbox, STATE_DIR } from './sandbox/sandbox.js';

/*
 * npm run bench:judge — sandbox overhead per run against a bare fork/exec of the same compiled
 * binary, and judged test cases per second against bare execution, measured in the same run.
 * BENCH_RUNS (default 100) and BENCH_CASES (default 400) change the sizes.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const CASES = Number(process.env.BENCH_CASES ?? 400);
const CORES = availableParallelism();
const SOURCE =
  '#include <stdio.h>\nint main(void){long long a,b;if(scanf("%lld %lld",&a,&b)==2)printf("%lld\\n",a+b);return 0;}\n';

function bare(bin: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(input);
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function time<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const dir = join(STATE_DIR, `bench-${process.pid}`);
  await mkdir(dir, { recursive: true, mode: 0o711 });
  try {
    const src = join(dir, 'ab.c');
    const bin = join(dir, 'ab');
    await writeFile(src, SOURCE);
    execFileSync('gcc', ['-O2', '-o', bin, src]);
    await chmod(bin, 0o755);
    const boxed = () =>
      runInSandbox({
        argv: ['/box/main'],
        files: [{ host: bin, box: '/box/main' }],
        stdin: '1 2\n',
        cpuMs: 1000,
        memoryMb: 64,
        outputBytes: 1 << 20,
      });
    // Warm up both paths (page cache, helper build, cgroup parents).
    for (let i = 0; i < 5; i++) {
      await bare(bin, '1 2\n');
      const r = await boxed();
      if (r.stdout.toString() !== '3\n')
        throw new Error(
          `sandboxed run failed: ${JSON.stringify({ ...r, stdout: r.stdout.toString(), stderr: r.stderr.toString() })}`,
        );
    }
    const bareTimes: number[] = [];
    const boxTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bareTimes.push(await time(() => bare(bin, '1 2\n')));
      boxTimes.push(await time(boxed));
    }
    const bareMs = median(bareTimes);
    const boxMs = median(boxTimes);

    const inputs = Array.from({ length: CASES }, (_, i) => ({ input: `${i} ${i}\n`, expected: `${2 * i}\n` }));
    const pool = new Semaphore(CORES);
    const bareTotal = (await time(() => Promise.all(inputs.map((c) => pool.use(() => bare(bin, c.input)))))) / 1000;
    // Compile once outside the measurement, as a cached artifact would be for repeated submissions.
    const warm = await judge({
      language: 'c',
      source: SOURCE,
      cases: inputs.slice(0, 1),
      timeLimitMs: 1000,
      memoryLimitMb: 64,
    });
    if (warm.verdict !== 'AC') throw new Error(`judge warm-up: ${JSON.stringify(warm)}`);
    let verdict = '';
    const judgedTotal =
      (await time(async () => {
        verdict = (await judge({ language: 'c', source: SOURCE, cases: inputs, timeLimitMs: 1000, memoryLimitMb: 64 }))
          .verdict;
      })) / 1000;
    if (verdict !== 'AC') throw new Error(`judged run: ${verdict}`);
    const bareRate = CASES / bareTotal;
    const judgedRate = CASES / judgedTotal;
    const overhead = boxMs - bareMs;
    const lines = [
      `examhall judge benchmark (${CORES} cores, ${RUNS} runs each for overhead, ${CASES} cases for throughput)`,
      `per run (median): bare fork/exec ${bareMs.toFixed(2)} ms, sandboxed ${boxMs.toFixed(2)} ms -> overhead ${overhead.toFixed(2)} ms (target < 5 ms: ${overhead < 5 ? 'met' : 'MISSED'})`,
      `throughput: bare ${bareRate.toFixed(1)} runs/s, judged ${judgedRate.toFixed(1)} cases/s -> ${((judgedRate / bareRate) * 100).toFixed(1)}% of bare (target >= 33%: ${judgedRate * 3 >= bareRate ? 'met' : 'MISSED'})`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:judge failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
