/**
 * A proctor's warning crosses API processes: with PROCESSES=2 a candidate's event stream may live on one API
 * process while the proctor's call lands on the other, and the warning reaches it only because the supervisor
 * passes the change on (cluster/ipc.ts IpcNotifier, cluster/hub.ts). The streams are opened on connections of
 * their own and the test checks, from /proc, that they are held by different processes.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { CandidateEvent } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, candidatesInExam, type BenchDb, type ServerProcess } from '../bench/harness.js';
import { until, supervisedPids } from '../test/processes.js';
import { startSupervised, type Supervised } from '../test/supervised.js';

/** The pid (among `pids`) holding the server's end of the TCP connection from `clientPort` to `serverPort`. */
function holderOf(serverPort: number, clientPort: number, pids: readonly number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (f[1]!.endsWith(`:${hex(serverPort)}`) && f[2]!.endsWith(`:${hex(clientPort)}`)) inode = f[9];
    }
  }
  if (!inode) return undefined;
  return pids.find((pid) => {
    try {
      return fs
        .readdirSync(`/proc/${pid}/fd`)
        .some((fd) => fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`);
    } catch {
      return false;
    }
  });
}

/** An event stream on a TCP connection of its own (no pooled connection), with the client's port. */
interface Stream {
  localPort: number;
  events: CandidateEvent[];
  close(): void;
}

function openStream(base: string, pathAndQuery: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}${pathAndQuery}`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`event stream: ${res.statusCode}`));
        const events: CandidateEvent[] = [];
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = buffer
              .slice(0, end)
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            buffer = buffer.slice(end + 2);
            if (data) events.push(JSON.parse(data) as CandidateEvent);
          }
        });
        res.on('error', () => undefined);
        resolve({ localPort: req.socket!.localPort!, events, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

describe("a proctor's warning with two API processes", () => {
  const admin = { phone: '13900000002', password: 'warnings-admin-pass' };
  let db: BenchDb;
  let inbox: Supervised['inbox'];
  let server: ServerProcess;

  let supervised: Supervised | undefined;

  beforeAll(async () => {
    supervised = await startSupervised({ ADMIN_PHONE: admin.phone, ADMIN_PASSWORD: admin.password });
    ({ db, inbox, server } = supervised);
  }, 120_000);

  afterAll(async () => supervised?.stop());

  it('reaches streams held by both API processes', async () => {
    const { tokens, examId } = await candidatesInExam(server, db, inbox, 1);
    const token = tokens[0]!;
    const handle = db.open();
    const attempt = await handle.db.selectFrom('attempts').select('id').executeTakeFirstOrThrow();
    await handle.db.destroy();

    const apis = supervisedPids(server.child.pid!);
    const port = Number(new URL(server.base).port);
    // node:cluster hands new connections to the listening API processes in turn; the supervisor reports listening
    // once the first one listens, so streams are opened until both hold one.
    const streams: Stream[] = [];
    const holders = new Set<number>();
    for (let i = 0; i < 40 && holders.size < 2; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 250));
      const s = await openStream(server.base, `/api/monitor/events?exam_id=${examId}&auth=${token}`);
      streams.push(s);
      await until(async () => s.events.some((e) => e.type === 'hello'), 10_000);
      const holder = holderOf(port, s.localPort, apis);
      if (holder) holders.add(holder);
    }
    try {
      expect(holders.size, 'the streams are held by two API processes').toBe(2);

      const { token: staff } = await call<{ token: string }>(server.base, 'POST', '/admin/auth/login', admin);
      const text = `warning ${Date.now()}`;
      await call(
        server.base,
        'POST',
        '/admin/proctor/warn',
        { attempt_id: attempt.id, text },
        { authorization: `Bearer ${staff}` },
      );
      for (const s of streams) {
        await until(async () => s.events.some((e) => e.type === 'warning' && e.warning.text === text), 5_000);
      }
    } finally {
      for (const s of streams) s.close();
    }
  }, 120_000);
});
