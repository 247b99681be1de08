import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box as BoxType } from './box.js';
import { cgroupSupport } from './cgroup.js';

// This file keeps one box open for several seconds: give it uids outside the range the hostile
// tests (running in parallel) check for leftover box processes.
const saved = process.env.EXAMHALL_JUDGE_UID_BASE;
process.env.EXAMHALL_JUDGE_UID_BASE = '61000';
const { Box } = await import('./box.js');
if (saved === undefined) delete process.env.EXAMHALL_JUDGE_UID_BASE;
else process.env.EXAMHALL_JUDGE_UID_BASE = saved;

/*
 * A persistent box runs many cases of one task: each case must start from a clean box (no files,
 * processes, IPC objects or mounts of the previous case) and be measured on its own.
 */
const v1 = (await cgroupSupport()).mode === 'v1';

describe.runIf(v1)('persistent box', () => {
  let box: BoxType;
  beforeAll(async () => {
    box = (await Box.open({ argv: ['/bin/sh', '-c', 'eval "$(cat)"'], memoryMb: 128, processes: 16 }))!;
  });
  afterAll(() => box?.close());

  const run = async (script: string, cpuMs = 2000) => {
    const r = await box.run({ stdin: script, cpuMs, outputBytes: 1 << 20 });
    return { ...r, out: r.stdout.toString(), err: r.stderr.toString() };
  };

  it('gives every case a clean box: files, processes, IPC, /dev', async () => {
    const leave = await run(
      [
        'echo x > /box/left; echo x > /tmp/left; echo x > /dev/shm/left',
        'echo x > /dev/left 2>/dev/null && echo dev-writable',
        'ipcmk -M 4096 >/dev/null',
        '(sleep 30 &)',
        'setsid sleep 30 &',
        'echo done',
      ].join('\n'),
    );
    expect(leave).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(leave.retry).toBeUndefined();
    expect(leave.out).toBe('done\n');
    const look = await run(
      [
        'ls -A /box /tmp /dev/shm | grep left || echo no-files',
        'ipcs -m | grep -c "^0x" || true',
        'ps -e -o comm= | grep -c sleep || true',
      ].join('\n'),
    );
    expect(look.retry).toBeUndefined();
    expect(look.out).toBe('no-files\n0\n0\n');
  });

  it('runs as a uid of its own range', () => {
    const uids = execFileSync('ps', ['-eo', 'uid='], { encoding: 'utf8' }).split('\n').map(Number);
    expect(uids.some((u) => u >= 61000 && u < 61256)).toBe(true);
  });

  it('ends a case promptly when it leaves processes forking in the background', async () => {
    const r = await run('(while :; do (sleep 1) & done) 2>/dev/null &\necho done');
    expect(r).toMatchObject({ outcome: 'exited', exitCode: 0, out: 'done\n' });
    expect(r.wallMs).toBeLessThan(1500);
    expect((await run('ps -e -o comm= | grep -c sleep || true')).out).toBe('0\n');
  });

  it('passes only standard input, output and error', async () => {
    const r = await run('ls /proc/self/fd');
    // 3 is the directory ls is reading.
    expect(r.out.split('\n').filter(Boolean)).toEqual(['0', '1', '2', '3']);
  });

  it('the program cannot reach the runner', async () => {
    const r = await run(
      [
        'cat /proc/1/environ >/dev/null 2>&1 && echo environ',
        'ls /proc/1/fd >/dev/null 2>&1 && echo fds',
        'ls /.judge',
        'grep CapEff /proc/self/status',
        'kill -9 1; kill -9 -1; echo survived',
      ].join('\n'),
    );
    expect(r.out).toBe('CapEff:\t0000000000000000\nsurvived\n');
    const next = await run('echo next');
    expect(next).toMatchObject({ outcome: 'exited', exitCode: 0, out: 'next\n' });
    expect(next.retry).toBeUndefined();
  });

  it('measures memory and CPU per case', async () => {
    const big = await run('head -c 60000000 /dev/zero > /tmp/big; echo ok');
    const busy = await run('i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo ok');
    const small = await run('echo ok');
    expect(big.memoryKb).toBeGreaterThan(55_000);
    expect(small.memoryKb).toBeLessThan(20_000);
    expect(busy.cpuMs).toBeGreaterThan(100);
    expect(small.cpuMs).toBeLessThan(50);
  });

  it('limits each case: wall time, CPU time, output, memory; the box stays usable', async () => {
    const wall = await run('sleep 10', 300);
    expect(wall.outcome).toBe('wall');
    expect(wall.wallMs).toBeLessThan(5000);
    const cpu = await run('while :; do :; done', 300);
    expect(cpu.outcome).toBe('cpu');
    const out = await box.run({ stdin: 'head -c 2000000 /dev/zero', cpuMs: 2000, outputBytes: 1000 });
    expect(out.outcome).toBe('output');
    const mem = await run(`python3 -c 'b = b"x" * (300 << 20)'; echo ok`);
    expect(mem, JSON.stringify({ ...mem, stdout: '' })).toMatchObject({ outcome: 'memory' });
    const after = await run('echo ok');
    expect(after).toMatchObject({ outcome: 'exited', out: 'ok\n' });
  });
});
