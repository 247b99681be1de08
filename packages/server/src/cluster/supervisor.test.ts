/**
 * The embedded default's process model for real: `main.ts` with PROCESSES=2 runs a supervisor, two API processes
 * on one port and a worker process on one SQLite database, the worker yielding the processor to the API processes
 * (a lower priority). Rate limits hold across the API processes (the
 * supervisor keeps them), a job queued through an API process runs in the worker, an API process killed with
 * SIGKILL is started again while the port keeps answering, the worker serves its metrics on METRICS_PORT, and
 * SIGTERM stops every process.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMS_RULES } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../bench/harness.js';
import { startScript, until, supervisedPids, killPids } from '../test/processes.js';
import { STAFF_NICENESS } from './priority.js';
import { ROLE_ENV } from './supervisor.js';

/** A GET that tries once more when its kept-alive connection was to a process that just died. */
async function get(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch {
    return fetch(url);
  }
}

describe('the supervisor with two API processes and a worker', () => {
  let dataDir: string;
  let server: ChildProcess;
  let base: string;
  let metricsBase: string;
  let output = '';
  const admin = { phone: '13900000001', password: 'supervisor-admin-pass' };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-supervisor-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const metricsPort = await freePort();
    metricsBase = `http://127.0.0.1:${metricsPort}`;
    server = await startScript(
      '../main.ts',
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        PROCESSES: '2',
        FACE_WORKERS: '1',
        WEB_DIST: '/nonexistent',
        TRUST_PROXY: 'true',
        ADMIN_PHONE: admin.phone,
        ADMIN_PASSWORD: admin.password,
        LOG_LEVEL: 'warn',
        SHUTDOWN_GRACE_MS: '5000',
        METRICS_PORT: String(metricsPort),
      },
      'listening on',
    );
    server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  }, 120_000);

  afterAll(async () => {
    killPids(supervisedPids(server.pid!));
    if (server.exitCode === null) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs two API processes and a worker under one supervisor, the worker at a lower priority', () => {
    const pids = supervisedPids(server.pid!);
    expect(pids).toHaveLength(3);
    const roles = pids.map((pid) => {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const role = env.find((v) => v.startsWith(`${ROLE_ENV}=`))?.slice(ROLE_ENV.length + 1);
      return [role, os.getPriority(pid)];
    });
    const own = os.getPriority(server.pid!);
    expect(roles.sort()).toEqual([
      ['api', own],
      ['api', own],
      ['worker', Math.max(own, STAFF_NICENESS)],
    ]);
  });

  it('holds one rate limit across the API processes', async () => {
    // Each send counts against the address's limit; with counters per process twice as many would pass.
    const tries = SMS_RULES.ipLimit + 6;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) =>
        fetch(`${base}/api/user/send-msg?phone=1370000${String(i).padStart(4, '0')}&area_code=86`, {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string } })),
      ),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(
      answers.filter((a) => a.status === 200),
      JSON.stringify(answers.slice(0, 3)),
    ).toHaveLength(SMS_RULES.ipLimit);
    expect(refused).toHaveLength(tries - SMS_RULES.ipLimit);
    expect(new Set(refused.map((a) => a.body.code))).toEqual(new Set(['rate_limited']));
  });

  it('runs a job queued through an API process in the worker process', async () => {
    const login = await fetch(`${base}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: admin.phone, password: admin.password }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}` };
    const started = await fetch(`${base}/api/admin/results/export`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ exam_id: 1, format: 'csv' }),
    });
    expect(started.status, await started.clone().text()).toBe(200);
    const jobId = ((await started.json()) as { data: { job_id: number } }).data.job_id;
    const job = await until(async () => {
      const res = await fetch(`${base}/api/admin/jobs/detail?job_id=${jobId}`, { headers: auth });
      const data = ((await res.json()) as { data: { state: string } }).data;
      return data.state === 'done' || data.state === 'failed' ? data : undefined;
    }, 60_000);
    expect(job.state).toBe('done');
  });

  it("serves the worker's metrics on METRICS_PORT, and names each process on its series", async () => {
    const worker = await get(`${metricsBase}/metrics`);
    expect(worker.status).toBe(200);
    const text = await worker.text();
    expect(text).toMatch(/^examhall_process_start_time_seconds\{process="worker-0"\} \d+/m);
    expect(text).toContain('# TYPE examhall_periodic_task_duration_seconds histogram');
    expect((await get(`${metricsBase}/readyz`)).status).toBe(200);
    // The port of the API processes answers from one of them, which says which.
    const api = await (await get(`${base}/metrics`)).text();
    expect(api).toMatch(/^examhall_process_start_time_seconds\{process="api-[12]"\} \d+/m);
  });

  it('starts an API process again after SIGKILL, and the port answers meanwhile', async () => {
    const before = supervisedPids(server.pid!);
    // The last started are the API processes (the worker starts first).
    const victim = before[before.length - 1]!;
    process.kill(victim, 'SIGKILL');
    for (let i = 0; i < 20; i++) {
      const res = await get(`${base}/api/common/site-config`);
      expect(res.status).toBe(200);
    }
    await until(async () => {
      const now = supervisedPids(server.pid!);
      return now.length === 3 && !now.includes(victim);
    }, 60_000);
    expect(output).toMatch(/api process \d \(pid \d+\) ended \(SIGKILL\); starting it again/);
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const children = supervisedPids(server.pid!);
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of children) expect(() => process.kill(pid, 0), `process ${pid} still runs`).toThrow();
  });
});
