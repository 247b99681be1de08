/**
 * A candidate's sign-in with two API processes, each keeping the candidates behind tokens it has seen
 * (services/candidateSessions.ts): a logout through one process ends the token in the other at once, and a profile
 * saved through one is what the other answers next, because the supervisor passes the change on (cluster/ipc.ts).
 * Every call goes on a connection of its own, which node:cluster hands to the API processes in turn, so a run of
 * calls reaches both.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatesInExam, type BenchDb, type ServerProcess } from '../bench/harness.js';
import { startSupervised, type Supervised } from '../test/supervised.js';

/** Calls that reach both API processes: node:cluster hands new connections out in turn. */
const CALLS = 12;

/** One candidate call on a connection of its own; answers the envelope. */
function candidateCall(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: object,
): Promise<{ status: string; code?: string; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      `${base}/api${path}?auth=${token}`,
      {
        method,
        agent: false,
        headers: { connection: 'close', ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as { status: string; code?: string; data: Record<string, unknown> });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The answers of CALLS get-info calls, each on a new connection. */
async function infoRound(base: string, token: string) {
  const out = [];
  for (let i = 0; i < CALLS; i++) out.push(await candidateCall(base, 'GET', '/user/get-info', token));
  return out;
}

describe("a candidate's sign-in with two API processes", () => {
  let db: BenchDb;
  let inbox: Supervised['inbox'];
  let server: ServerProcess;
  let supervised: Supervised | undefined;

  beforeAll(async () => {
    supervised = await startSupervised({});
    ({ db, inbox, server } = supervised);
  }, 120_000);

  afterAll(async () => supervised?.stop());

  it('ends a logged-out token and shows a saved profile in both processes at once', async () => {
    const { tokens } = await candidatesInExam(server, db, inbox, 2);
    const [leaving, staying] = tokens as [string, string];

    // Both processes have answered, and kept, both tokens.
    for (const token of [leaving, staying]) {
      expect((await infoRound(server.base, token)).every((a) => a.status === 'success')).toBe(true);
    }

    const saved = await candidateCall(server.base, 'POST', '/user/my-info', staying, {
      name: '赵六',
      school: '北京大学',
      major: '计算机科学与技术',
      degree: '本科',
      graduation_year: 2026,
    });
    expect(saved.status, JSON.stringify(saved)).toBe('success');
    const logout = await candidateCall(server.base, 'POST', '/user/logout', leaving);
    expect(logout.status, JSON.stringify(logout)).toBe('success');

    // The very next calls, through either process: the ended token refused every time, the new name every time.
    const ended = await infoRound(server.base, leaving);
    expect(ended.map((a) => a.code)).toEqual(Array.from({ length: CALLS }, () => 'not_logged_in'));
    const renamed = await infoRound(server.base, staying);
    expect(renamed.map((a) => (a.data.userInfo as { name: string }).name)).toEqual(
      Array.from({ length: CALLS }, () => '赵六'),
    );
  }, 120_000);
});
