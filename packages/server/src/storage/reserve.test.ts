/**
 * The local store's disk reserve on a real small disk: a 64 MB tmpfs holds DATA_DIR, with the SQLite database and
 * the store in it as in production. Evidence fills the disk down to the reserve and is refused there (503
 * storage_full), and answers are still saved.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QuestionType, type ProctorGridData, type StsData } from '@examhall/contract';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProctorChange } from '../proctoring/notifier.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { enterExam } from '../test/checks.js';
import { signed } from '../test/media.js';
import { stsPut } from '../test/sts.js';
import { PICTURE_MAX_BYTES } from './budget.js';

const PHONE = '13800138000';
const MB = 1024 * 1024;
const RESERVE_MB = 16;

/** A 64 MB tmpfs of its own, or null when it cannot be mounted here (under CI=true that fails the suite instead). */
function smallDisk(): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (err) {
    fs.rmdirSync(dir);
    const why = `mounting a 64 MB tmpfs failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}): it needs root`;
    if (process.env.CI === 'true') throw new Error(`${why}; CI runs as root (.ci/run), so this must work there`);
    console.warn(`\n*** SKIPPING the disk reserve test: ${why} ***\n`);
    return null;
  }
}

const disk = smallDisk();

afterAll(() => {
  if (disk === null) return;
  // Lazily: a file a failed test left open must not keep the disk mounted.
  execFileSync('umount', ['--lazy', disk]);
  fs.rmdirSync(disk);
});

const freeBytes = (dir: string) => {
  const stat = fs.statfsSync(dir);
  return stat.bavail * stat.bsize;
};

describe.skipIf(disk === null)('the local store on a small disk shared with SQLite (DATA_DIR)', () => {
  const dataDir = disk!;
  let t: TestApp;
  let token: string;
  let examId: number;
  let base: string;

  beforeEach(async () => {
    t = await createTestApp('sqlite', { dataDir, env: { STORAGE_RESERVE_MB: String(RESERVE_MB) } });
    // SigV4 signers read the real clock.
    t.advance(Date.now() - t.now());
    let anid: number;
    ({ examId, anid } = await t.seed(PHONE));
    token = await t.loginCandidate(PHONE);
    const entered = await enterExam(t, token, examId, anid);
    expect(entered.statusCode, entered.body).toBe(200);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await t.close();
    for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  });

  const put = (c: StsData, name: string, bytes: Buffer) => stsPut(base, c, name, bytes);

  it('refuses evidence with 503 storage_full at the reserve, tells the proctor, saves answers, and takes evidence again once there is room', async () => {
    expect(fs.existsSync(path.join(dataDir, 'examhall.sqlite'))).toBe(true);
    const sts = body<StsData>(await t.app.inject(`/api/sts/get-token?exam_id=${examId}&auth=${token}`)).data;
    const proctor = await t.loginStaff('proctor', { examId });
    const grid = async () =>
      body<ProctorGridData>(
        await t.app.inject({
          url: `/api/admin/proctor/grid?exam_id=${examId}`,
          headers: { authorization: `Bearer ${proctor}` },
        }),
      ).data;
    expect((await grid()).storage_full).toBe(false);
    const changes: ProctorChange[] = [];
    t.services.notifier.listen((c) => changes.push(c));

    // Camera frames at their kind's limit (noise, as no camera makes them) until the store refuses one.
    const frame = () => Buffer.concat([signed('jpeg', ''), randomBytes(PICTURE_MAX_BYTES - signed('jpeg', '').length)]);
    const stored: string[] = [];
    let refused: Response | null = null;
    for (let n = 0; n < 100 && !refused; n++) {
      const res = await put(sts, `frame/${n}.jpg`, frame());
      if (res.status === 200) stored.push(`frame/${n}.jpg`);
      else refused = res;
    }
    expect(refused, 'the disk never filled').not.toBeNull();
    const text = await refused!.text();
    expect([refused!.status, /<Code>([^<]+)<\/Code>/.exec(text)?.[1]], text).toEqual([503, 'storage_full']);
    expect(refused!.headers.get('access-control-allow-origin')).toBe('*');
    // Most of the disk went to evidence, and the reserve is still free.
    expect(stored.length * PICTURE_MAX_BYTES).toBeGreaterThan(30 * MB);
    expect(freeBytes(dataDir)).toBeGreaterThanOrEqual(RESERVE_MB * MB);
    // Nothing of the refused object is kept or counted against the attempt.
    expect(await t.store.head(`${sts.prefix}frame/${stored.length}.jpg`)).toBeNull();
    const usage = await t.db.handle.db
      .selectFrom('storage_usage')
      .selectAll()
      .where('prefix', '=', sts.prefix)
      .executeTakeFirstOrThrow();
    expect(Number(usage.objects)).toBe(stored.length);
    // Pictures the server keeps itself are refused the same way.
    await expect(t.store.put(`${sts.prefix}face/server.jpg`, frame())).rejects.toMatchObject({ code: 'storage_full' });

    // The proctor hears of the attempt, and their grid says why its pictures stopped.
    await new Promise((r) => setImmediate(r));
    expect(changes).toContainEqual(expect.objectContaining({ type: 'attempt' }));
    expect((await grid()).storage_full).toBe(true);

    // Answers are saved and read back: the database has the reserve to itself.
    const order = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order;
    const choices = order.filter((q) => q.type === QuestionType.single || q.type === QuestionType.trueFalse);
    expect(choices.length).toBeGreaterThan(0);
    let seq = 0;
    for (let round = 0; round < 50; round++) {
      for (const q of choices) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/answer/answer?auth=${token}`,
          payload: {
            exam_id: examId,
            subject_id: q.id,
            answer: { kind: 'choice', option: round % 2 === 0 ? 'A' : 'B' },
            client_id: randomUUID(),
            seq: ++seq,
            changed_at: t.now(),
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    for (const q of choices) {
      const shown = body<{ answer: { value: unknown } }>(
        await t.app.inject(`/api/subject/show-new?exam_id=${examId}&subject_id=${q.id}&auth=${token}`),
      ).data;
      expect(shown.answer.value).toEqual({ kind: 'choice', option: 'B' });
    }

    // Room made (an operator moved old evidence away): what the page kept is taken, and the notice goes.
    for (const name of stored.slice(0, 10)) await t.store.delete(`${sts.prefix}${name}`);
    const later = await put(sts, `frame/${stored.length}.jpg`, frame());
    expect(later.status, await later.clone().text()).toBe(200);
    expect((await grid()).storage_full).toBe(false);
  }, 120_000);
});
