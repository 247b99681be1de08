import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { judge } from './judge.js';
import { Semaphore } from './limit.js';
import { Box } from './sandbox/box.js';
import { runInSandbox, STATE_DIR } from './sandbox/sandbox.js';

/*
 * npm run bench:judge — sandbox overhead per run against a bare fork/exec of the same compiled
 * binary, and judged test cases per second against bare execution, measured in the same run.
 * A judged case runs in its worker's persistent box (one bubblewrap instance and cgroup per task
 * worker, a fresh mount/IPC namespace and tmpfs per case): that is the per-run figure. The cost of
 * starting a box of its own (compilations, custom checkers, the first case of a worker) is printed
 * too. BENCH_RUNS (default 100) and BENCH_CASES (default 400) change the sizes.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const CASES = Number(process.env.BENCH_CASES ?? 400);
const CORES = availableParallelism();
const SOURCE =
  '#include <stdio.h>\nint main(void){long long a,b;if(scanf("%lld %lld",&a,&b)==2)printf("%lld\\n",a+b);return 0;}\n';

/*
 * The bare baseline: fork, pipes, exec and wait of the same binary from a small C program, with no
 * sandbox and no Node in the loop (Node's own spawn costs more than the box's fork/exec, which would
 * flatter the sandbox). `barerun N PAR BIN INPUT`: PAR processes share N runs; prints each run's
 * time in ms, then the total wall time in ms on the last line.
 */
const BARE_SOURCE = String.raw`
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(int argc, char **argv) {
  int n = atoi(argv[1]), par = atoi(argv[2]);
  const char *bin = argv[3], *input = argv[4];
  double *times = mmap(NULL, sizeof(double) * n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  double start = now();
  for (int w = 0; w < par; w++) {
    if (fork() != 0) continue;
    for (int i = w; i < n; i += par) {
      double t = now();
      int in[2], out[2];
      if (pipe(in) || pipe(out)) return 1;
      pid_t pid = fork();
      if (pid == 0) {
        dup2(in[0], 0); dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        execl(bin, bin, (char *)NULL);
        _exit(127);
      }
      close(in[0]); close(out[1]);
      if (write(in[1], input, strlen(input)) < 0) return 1;
      close(in[1]);
      char buf[4096];
      while (read(out[0], buf, sizeof buf) > 0) {}
      close(out[0]);
      int status;
      waitpid(pid, &status, 0);
      times[i] = now() - t;
    }
    _exit(0);
  }
  while (wait(NULL) > 0) {}
  double total = now() - start;
  for (int i = 0; i < n; i++) printf("%.4f\n", times[i]);
  printf("%.4f\n", total);
  return 0;
}
`;

/** Runs the bare baseline: per-run times (ms) and total wall time (ms). */
function bareBatch(
  tool: string,
  bin: string,
  runs: number,
  parallel: number,
  input: string,
): { times: number[]; totalMs: number } {
  const lines = execFileSync(tool, [String(runs), String(parallel), bin, input], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  return { times: lines.slice(0, -1), totalMs: lines[lines.length - 1]! };
}

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
    const tool = join(dir, 'barerun');
    await writeFile(join(dir, 'barerun.c'), BARE_SOURCE);
    execFileSync('gcc', ['-O2', '-o', tool, join(dir, 'barerun.c')]);
    const fresh = () =>
      runInSandbox({
        argv: ['/box/main'],
        files: [{ host: bin, box: '/box/main' }],
        stdin: '1 2\n',
        cpuMs: 1000,
        memoryMb: 64,
        outputBytes: 1 << 20,
      });
    const box = await Box.open({ argv: ['/box/main'], files: [{ host: bin, box: '/box/main' }], memoryMb: 64 });
    if (!box) throw new Error('persistent boxes need cgroup v1 on this host');
    const boxed = () => box.run({ stdin: '1 2\n', cpuMs: 1000, outputBytes: 1 << 20 });
    // Warm up every path (page cache, helper build, cgroup parents).
    for (let i = 0; i < 5; i++) {
      await bare(bin, '1 2\n');
      for (const r of [await boxed(), await fresh()]) {
        if (r.stdout.toString() !== '3\n' || r.outcome !== 'exited')
          throw new Error(
            `sandboxed run failed: ${JSON.stringify({ ...r, stdout: r.stdout.toString(), stderr: r.stderr.toString() })}`,
          );
      }
    }
    const bareTimes: number[] = [];
    const nodeTimes: number[] = [];
    const boxTimes: number[] = [];
    const freshTimes: number[] = [];
    // Interleaved in chunks, so the shared machine's noise falls on both sides alike.
    const chunk = 10;
    for (let i = 0; i < RUNS; i += chunk) {
      bareTimes.push(...bareBatch(tool, bin, chunk, 1, '1 2\n').times);
      for (let k = 0; k < chunk; k++) {
        nodeTimes.push(await time(() => bare(bin, '1 2\n')));
        boxTimes.push(await time(boxed));
      }
      freshTimes.push(await time(fresh));
      freshTimes.push(await time(fresh));
    }
    await box.close();
    const bareMs = median(bareTimes);
    const boxMs = median(boxTimes);
    const freshMs = median(freshTimes);

    const inputs = Array.from({ length: CASES }, (_, i) => ({ input: `${i} ${i}\n`, expected: `${2 * i}\n` }));
    const pool = new Semaphore(CORES);
    // Bare throughput: CORES processes of the C baseline; Node's spawn is shown for scale only.
    const nodeTotal = (await time(() => Promise.all(inputs.map((c) => pool.use(() => bare(bin, c.input)))))) / 1000;
    let bareTotal = bareBatch(tool, bin, CASES, CORES, '1 2\n').totalMs / 1000;
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
    // Bare throughput again after the judged run; the faster of the two is the (stricter) baseline.
    bareTotal = Math.min(bareTotal, bareBatch(tool, bin, CASES, CORES, '1 2\n').totalMs / 1000);
    const bareRate = CASES / bareTotal;
    const nodeRate = CASES / nodeTotal;
    const nodeMs = median(nodeTimes);
    const judgedRate = CASES / judgedTotal;
    const overhead = boxMs - bareMs;
    const lines = [
      `examhall judge benchmark (${CORES} cores, ${RUNS} runs each for overhead, ${CASES} cases for throughput)`,
      `per run (median): bare fork/exec ${bareMs.toFixed(2)} ms, sandboxed ${boxMs.toFixed(2)} ms -> overhead ${overhead.toFixed(2)} ms (target < 5 ms: ${overhead < 5 ? 'met' : 'MISSED'})`,
      `  (for scale: the same binary spawned bare from Node takes ${nodeMs.toFixed(2)} ms per run, ${nodeRate.toFixed(1)} runs/s on ${CORES} cores)`,
      `a box of its own (compile, custom checker, first case of a worker): ${freshMs.toFixed(2)} ms per run (median of ${freshTimes.length})`,
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
