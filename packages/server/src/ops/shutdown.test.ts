/**
 * Graceful shutdown of the real server process (main.ts): on SIGTERM a request in flight still gets its
 * answer, a new connection is refused, an open event stream ends cleanly (so a browser reconnects elsewhere),
 * and the process exits 0.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { standaloneEnv, startScript, until } from '../test/processes.js';
import { openSse } from '../test/sse.js';
import { startSmsReceiver, type SmsReceiver } from '../test/smsReceiver.js';

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a TCP connection to `port` is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('graceful shutdown of the server process', () => {
  let dataDir: string;
  let sms: SmsReceiver;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-shutdown-'));
    sms = await startSmsReceiver();
  });
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await sms.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, ends event streams, exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = await startScript(
      '../main.ts',
      {
        ...standaloneEnv(port, dataDir),
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: sms.url,
        FACE_WORKERS: '1',
        // One process's own shutdown; the supervisor's is cluster/supervisor.test.ts.
        PROCESSES: '1',
        SHUTDOWN_GRACE_MS: '20000',
        LOG_LEVEL: 'info',
      },
      'Examhall is listening',
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    const json = async (url: string, init?: RequestInit) => {
      const res = await fetch(`${base}${url}`, init);
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const login = async (phone: string) => {
      expect((await json(`/api/user/send-msg?phone=${phone}`)).status).toBe(200);
      return sms.lastCode(phone);
    };
    const phone = '13800138000';
    const signedIn = await json('/api/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone, code: await login(phone) }),
    });
    const token = signedIn.body.data.auth as string;
    const exam = ((await json(`/api/exam/index?auth=${token}`)).body.data.list as { id: number; anid: number }[])[0]!;
    const started = await json(`/api/monitor/start-exam?auth=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exam_id: exam.id, anid: exam.anid }),
    });
    expect(started.status).toBe(200);
    const stream = await openSse(`${base}/api/monitor/events?exam_id=${exam.id}&auth=${token}`);
    expect(stream.status).toBe(200);

    // A slow request: its headers and half its body are in when SIGTERM arrives.
    const other = '13800138001';
    const payload = JSON.stringify({ phone: other, code: await login(other) });
    const loginsSeen = () => out.split('"url":"/api/user/login"').length - 1;
    const before = loginsSeen();
    let slow: http.ClientRequest | undefined;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/user/login',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(payload.slice(0, 10));
      slow = req;
    });
    // The server logged the request's start: it is in flight.
    await until(async () => loginsSeen() > before, 10_000);

    child.kill('SIGTERM');
    // The stream ends cleanly (not cut), and no new connection is taken.
    expect(await stream.ended).toBe('end');
    await until(async () => !(await accepts(port)), 10_000);
    expect(child.exitCode).toBeNull();

    // The request in flight finishes and gets its answer.
    slow!.end(payload.slice(10));
    const done = await answer;
    expect(done.status, done.body).toBe(200);
    expect((JSON.parse(done.body) as { data: { auth: string } }).data.auth).toMatch(/\S{20,}/);

    expect(await exited).toBe(0);
    expect(out).toContain('shutting down');
  });
});
