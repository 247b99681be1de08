import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILE_LIMITS, judge } from '../judge.js';
import type { JudgeTask } from '../types.js';
import { runInSandbox, STATE_DIR, UID_BASE } from './sandbox.js';
import { SLOTS } from './slots.js';

const limits = { timeLimitMs: 2000, memoryLimitMb: 128 } as const;
const once = [{ input: '' }];
const task = (language: JudgeTask['language'], source: string, extra: Partial<JudgeTask> = {}): JudgeTask => ({
  language,
  source,
  cases: once,
  returnOutput: true,
  ...limits,
  ...extra,
});

/** Live processes (zombies waiting for the host's init to reap them hold nothing) running as any box uid. */
async function boxProcesses(): Promise<string[]> {
  let live: string[] = [];
  // A killed process can take a moment to leave the process table.
  for (let i = 0; i < 20; i++) {
    const out = execFileSync('ps', ['-eo', 'uid=,pid=,stat=,comm='], { encoding: 'utf8' });
    live = out
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([uid, , stat]) => Number(uid) >= UID_BASE && Number(uid) < UID_BASE + SLOTS && !stat?.startsWith('Z'))
      .map((f) => f.join(' '));
    if (live.length === 0) return live;
    await new Promise((r) => setTimeout(r, 100));
  }
  return live;
}

const shadow = readFileSync('/etc/shadow', 'utf8');
const shadowLine = shadow.split('\n').find((l) => l.startsWith('root:'))!;

describe('hostile programs are contained', () => {
  it('fork bomb: bounded by the box’s process limit, nothing survives', async () => {
    const bomb =
      '#include <unistd.h>\n#include <stdio.h>\nint main(){int n=0;for(int i=0;i<100000;i++){if(fork()==0){pause();return 0;}else n++;}return 0;}';
    const counting =
      '#include <unistd.h>\n#include <stdio.h>\nint main(){int n=0;for(int i=0;i<10000;i++){pid_t p=fork();if(p==0){pause();return 0;}if(p<0)break;n++;}printf("%d\\n",n);fflush(stdout);return 0;}';
    const r = await judge(task('c', bomb));
    expect(['TLE', 'RE', 'AC']).toContain(r.verdict);
    const c = await judge(task('c', counting));
    expect(Number(c.cases[0]!.output)).toBeLessThan(40);
    const classic = await judge(task('bash', ':(){ :|:& };:\n'));
    expect(['TLE', 'RE', 'AC']).toContain(classic.verdict);
    expect(await boxProcesses()).toEqual([]);
    // The host can still start processes.
    expect(execFileSync('/bin/echo', ['alive'], { encoding: 'utf8' })).toBe('alive\n');
  });

  describe('network', () => {
    let server: ReturnType<typeof createServer>;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((s) => {
        connections++;
        s.end('secret\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('cannot connect to the host or the outside', async () => {
      const src = `import socket\nfor host in ["127.0.0.1", "1.1.1.1"]:\n    try:\n        s = socket.create_connection((host, ${port} if host == "127.0.0.1" else 80), timeout=2)\n        print("connected", host, s.recv(100))\n    except OSError as e:\n        print("blocked", host, type(e).__name__)\n`;
      const r = await judge(task('python', src, { timeLimitMs: 5000 }));
      expect(r.cases[0]!.output).toMatch(/^blocked 127\.0\.0\.1 .*\nblocked 1\.1\.1\.1 /);
      expect(connections).toBe(0);
    });
  });

  it('cannot read /etc/shadow, the judge’s files or another box', async () => {
    const victim = judge(
      task('bash', 'echo top-secret-42 > /box/secret; echo top-secret-42 > /tmp/secret; sleep 3\n', {
        timeLimitMs: 5000,
      }),
    );
    await new Promise((r) => setTimeout(r, 500));
    const spy = await judge(
      task(
        'bash',
        [
          'cat /etc/shadow 2>&1 | head -c 200',
          `ls -la ${STATE_DIR} 2>&1 | head -c 200`,
          'ls /proc | grep -E "^[0-9]+$" | wc -l',
          'cat /proc/*/root/box/secret /proc/*/root/tmp/secret 2>/dev/null',
          'find / -name secret -not -path "/proc/*" 2>/dev/null',
          'ls /box /tmp',
        ].join('\n'),
      ),
    );
    await victim;
    const out = spy.cases[0]!.output ?? '';
    expect(out).not.toContain('top-secret-42');
    expect(out).not.toContain(shadowLine.slice(0, 20));
    expect(out).toMatch(/No such file or directory/);
    // Only the spy's own processes are visible: a handful, never the host's.
    const pids = Number(out.split('\n').find((l) => /^\d+$/.test(l.trim())));
    expect(pids).toBeLessThan(10);
  });

  it('cannot write outside its box', async () => {
    const marker = `pwned-${process.pid}`;
    const targets = [
      `/usr/${marker}`,
      `/etc/${marker}`,
      `/${marker}`,
      `/var/tmp/${marker}`,
      `${STATE_DIR}/${marker}`,
      `/root/${marker}`,
    ];
    const src =
      targets.map((t) => `echo x > ${t} 2>/dev/null && echo "wrote ${t}" || echo "refused ${t}"`).join('\n') + '\n';
    const r = await judge(task('bash', src));
    for (const t of targets) expect(existsSync(t), t).toBe(false);
    expect(r.cases[0]!.output).not.toMatch(/^wrote \/(usr|etc)/m);
  });

  it('symlinks in the box never lead the host to host files', async () => {
    // The compile's artifact is what the box says it is: a link to /etc/shadow is read inside the box (where it does not exist).
    const r = await runInSandbox({
      argv: ['/bin/sh', '-c', 'ln -s /etc/shadow main; ln -s /etc/passwd output; cat main >&4; cat output'],
      cpuMs: 1000,
      memoryMb: 64,
      outputBytes: 1 << 20,
      artifactBytes: 1 << 20,
    });
    expect(r.artifact?.toString()).not.toContain(shadowLine.slice(0, 20));
    expect(r.stdout.toString()).not.toContain(readFileSync('/etc/passwd', 'utf8').split('\n')[1]!);
    // A program that replaces its own files with links cannot poison the cached artifact for the next run.
    const hostile =
      '#include <unistd.h>\n#include <stdio.h>\nint main(){unlink("/box/main");symlink("/etc/passwd","/box/main");symlink("/etc/shadow","/box/out");puts("3");}';
    const first = await judge(task('c', hostile, { cases: [{ input: '', expected: '3' }] }));
    const second = await judge(task('c', hostile, { cases: [{ input: '', expected: '3' }] }));
    expect(first.verdict).toBe('AC');
    expect(second.verdict).toBe('AC');
    expect(readFileSync('/etc/shadow', 'utf8')).toBe(shadow);
  });

  it('killing its parent or every process it can see harms nothing outside the box', async () => {
    // Its parent is the box's pid 1, which ignores signals from inside; kill(-1) spares the caller.
    const src =
      '#include <signal.h>\n#include <stdio.h>\n#include <unistd.h>\nint main(){int a=kill(getppid(),SIGKILL),b=kill(1,SIGKILL),c=kill(-1,SIGKILL);sleep(1);printf("%d %d %d\\n",a,b,c);return 0;}';
    const r = await judge(task('c', src));
    expect(r.verdict).toBe('AC');
    const py = await judge(
      task('python', 'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.kill(-1, signal.SIGKILL)\n'),
    );
    expect(['RE', 'AC']).toContain(py.verdict);
    expect(await boxProcesses()).toEqual([]);
  });

  it('sleeping past the wall time is TLE, killed on time', async () => {
    const started = Date.now();
    const r = await judge(task('bash', 'sleep 100\n', { timeLimitMs: 1000 }));
    expect(r.verdict).toBe('TLE');
    expect(r.cases[0]!.message).toMatch(/wall/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await boxProcesses()).toEqual([]);
  });

  it('a compile-time bomb is CE within the compile limits', async () => {
    const macros = ['#define A0 x'];
    for (let i = 1; i <= 40; i++) macros.push(`#define A${i} A${i - 1} A${i - 1}`);
    const started = Date.now();
    const r = await judge(task('c', `${macros.join('\n')}\nint main(){ A40; }\n`));
    expect(r.verdict).toBe('CE');
    expect(r.compileOutput).toMatch(/exceeded|killed|too much/);
    expect(Date.now() - started).toBeLessThan(COMPILE_LIMITS.wallMs + 15_000);
    const templates = await judge(
      task(
        'cpp',
        'template<int N> struct R { static const int v = R<N + 1>::v + 1; };\nint main(){ return R<0>::v; }\n',
      ),
    );
    expect(templates.verdict).toBe('CE');
  });

  it('#include of a host file fails to compile without leaking it', async () => {
    const r = await judge(task('c', '#include "/etc/shadow"\nint main(){}\n'));
    expect(r.verdict).toBe('CE');
    expect(r.compileOutput).not.toContain(shadowLine.slice(0, 20));
    expect(r.compileOutput).toMatch(/No such file/);
  });
});
