import { createHash } from 'node:crypto';
import type { StsData } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uploadQuota } from '../services/evidence/rules.js';
import { seedDemo } from '../services/demoSeed.js';
import { body, type TestApp } from '../test/app.js';
import { candidateApp, startWithoutChecks } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { candidateSts, stsPut } from '../test/sts.js';
import { signed } from '../test/media.js';
import { s3TestApp, type S3TestApp } from '../test/s3rver.js';
import {
  attemptBudget,
  examTotal,
  kindOfName,
  OBJECT_MAX_BYTES,
  PICTURE_MAX_BYTES,
  RECORDING_BYTES_PER_MINUTE,
  type BudgetSettings,
} from './budget.js';
import type { S3ObjectStore } from './s3ObjectStore.js';

const PHONE = '13800138000';
const MB = 1024 * 1024;
/** The demo exam's capture settings: every device on, a capture every 30 s (services/demoSeed.ts), 60 minutes. */
const DEMO: BudgetSettings = {
  capture_interval: 30,
  is_close_camera: 0,
  is_close_screen: 0,
  is_close_phone: 0,
  is_close_microphone: 0,
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A "picture" of `bytes`: a JPEG's first bytes, then zeros. */
const jpegOf = (bytes: number) =>
  Buffer.concat([signed('jpeg', 'x'), Buffer.alloc(bytes - signed('jpeg', 'x').length)]);

describe('the storage budget by kind', () => {
  it("states each kind's limit and derives the demo exam's budget from its settings, far below the old 1 MB per object doubled", () => {
    expect(PICTURE_MAX_BYTES).toBe(1280 * 720);
    expect(OBJECT_MAX_BYTES.frame).toBe(921_600);
    expect(OBJECT_MAX_BYTES.byte).toBe(1_920_000);
    expect(OBJECT_MAX_BYTES.signature).toBe(2 * MB);

    const demo = attemptBudget(DEMO, 60);
    // Captures on starting and every 30 s for an hour; the phone from its check (30 min) on; a recording a minute.
    expect(demo.counts).toEqual({ frame: 121, screen: 121, pertinent: 121, phone: 181, byte: 61, fixed: 12 });
    expect(demo.maxObjects).toBe(772);
    expect(demo.maxBytes).toBe(225_704_000);
    // The old quota: 1,930 objects, each budgeted at 1 MB, so the 1,024 MB ceiling.
    expect(
      uploadQuota(DEMO, 60, { started_at: null, end_at: null }, { maxBytes: 1024 * MB, maxObjects: 5000 }),
    ).toEqual({ maxBytes: 225_704_000, maxObjects: 772 });
    // Extra time raises it: the attempt's own 90 minutes count.
    const own = uploadQuota(
      DEMO,
      60,
      { started_at: 0, end_at: 90 * 60_000 },
      { maxBytes: 1024 * MB, maxObjects: 5000 },
    );
    expect(own.maxBytes).toBe(attemptBudget(DEMO, 90).maxBytes);

    // Devices the exam removes take nothing; a camera alone keeps its frames and the pictures of risk events.
    const cameraOnly = attemptBudget({ ...DEMO, is_close_screen: 1, is_close_phone: 1, is_close_microphone: 1 }, 60);
    expect(cameraOnly.counts).toEqual({ frame: 121, screen: 0, pertinent: 121, phone: 0, byte: 0, fixed: 12 });
    expect(cameraOnly.maxBytes).toBeLessThan(demo.maxBytes / 2);

    // An exam of 1,000 candidates: each attempt at its budget and an ID photo.
    expect(examTotal(DEMO, 60, 1000)).toBe(1000 * (225_704_000 + 4 * MB));
  });

  it('tells the kind of an object by the name the pages give it', () => {
    expect(kindOfName('frame/1700000000000-ab12cd34.jpg')).toBe('frame');
    expect(kindOfName('screen/1.jpg')).toBe('screen');
    expect(kindOfName('phone/1.jpg')).toBe('phone');
    expect(kindOfName('pertinent/1.jpg')).toBe('pertinent');
    expect(kindOfName('byte/1.webm')).toBe('byte');
    expect(kindOfName('first-picture-1700000000000.jpg')).toBe('first_picture');
    expect(kindOfName('signature-1700000000000.png')).toBe('signature');
    expect(kindOfName('signature/s.png')).toBe('signature');
    expect(kindOfName('video.mp4')).toBe('other');
    expect(kindOfName('frames/1.jpg')).toBe('other');
  });
});

describe.each(await testedDialects())('the storage budget on the local store on %s', (dialect) => {
  const s = candidateApp(dialect, { each: true, phone: PHONE, realClock: true });
  let base: string;

  beforeEach(async () => {
    await startWithoutChecks(s.t, s.token, s.examId, s.anid);
    base = await s.t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const sts = () => candidateSts(s.t, s.examId, s.token);
  const put = (c: StsData, name: string, bytes: Buffer) => stsPut(base, c, name, bytes);
  const usage = (prefix: string) =>
    s.t.db.handle.db.selectFrom('storage_usage').selectAll().where('prefix', '=', prefix).executeTakeFirstOrThrow();

  it('refuses eight 19 MB uploads under one attempt, whatever kind their names claim, and stores none', async () => {
    const a = await sts();
    const huge = jpegOf(19 * MB);
    const names = ['frame/1.jpg', 'frame/2.jpg', 'screen/1.jpg', 'phone/1.jpg', 'pertinent/1.jpg', 'byte/1.webm'];
    const answers = await Promise.all(
      [...names, 'first-picture-1.jpg', 'video/1.mp4'].map(async (name) => {
        const res = await put(a, name, huge);
        return { name, status: res.status, text: await res.text() };
      }),
    );
    for (const r of answers) {
      expect(r.status, r.name).toBe(413);
      expect(r.text, r.name).toContain('<Code>evidence_too_large</Code>');
    }
    for (const r of answers) expect(await s.t.store.head(`${a.prefix}${r.name}`), r.name).toBeNull();
    const row = await usage(a.prefix);
    expect({ bytes: Number(row.bytes), objects: Number(row.objects) }).toEqual({ bytes: 0, objects: 0 });
  });

  it("takes objects up to their kind's limit, and refuses past the attempt's budget", async () => {
    const a = await sts();
    // The quota the credentials were issued with is the demo exam's budget, not the 1,024 MB ceiling.
    const row = await usage(a.prefix);
    expect({ bytes: Number(row.max_bytes), objects: Number(row.max_objects) }).toEqual({
      bytes: attemptBudget(DEMO, 60).maxBytes,
      objects: attemptBudget(DEMO, 60).maxObjects,
    });
    expect((await put(a, 'frame/1.jpg', jpegOf(PICTURE_MAX_BYTES))).status).toBe(200);
    const over = await put(a, 'frame/2.jpg', jpegOf(PICTURE_MAX_BYTES + 1));
    expect(over.status).toBe(413);
    expect(await over.text()).toContain(`a frame object is at most ${PICTURE_MAX_BYTES} bytes`);
    expect((await put(a, 'byte/1.webm', Buffer.alloc(RECORDING_BYTES_PER_MINUTE, 1))).status).toBe(200);

    // As if the attempt had uploaded all it was expected to, but for one picture's room.
    await s.t.db.handle.db
      .updateTable('storage_usage')
      .set({ bytes: Number(row.max_bytes) - PICTURE_MAX_BYTES, objects: 100 })
      .where('prefix', '=', a.prefix)
      .execute();
    expect((await put(a, 'frame/3.jpg', jpegOf(PICTURE_MAX_BYTES))).status).toBe(200);
    const full = await put(a, 'frame/4.jpg', jpegOf(1000));
    expect(full.status).toBe(403);
    expect(await full.text()).toContain('<Code>QuotaExceeded</Code>');
  });

  it('refuses recording an object larger than the kind it is recorded as', async () => {
    const a = await sts();
    // Within a recording's limit, so the store takes it under byte/, but far over a frame's.
    const bytes = jpegOf(PICTURE_MAX_BYTES + 100_000);
    expect((await put(a, 'byte/odd.jpg', bytes)).status).toBe(200);
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/capture?auth=${s.token}`,
      payload: {
        exam_id: s.examId,
        kind: 'frame',
        key: `${a.prefix}byte/odd.jpg`,
        sha256: sha(bytes),
        trigger_time: s.t.now(),
        client_id: 'odd-frame',
      },
    });
    expect([res.statusCode, body(res).code]).toEqual([413, 'evidence_too_large']);
    expect(await s.t.store.head(`${a.prefix}byte/odd.jpg`)).toBeNull();
  });
});

/** S3-compatible storage takes any PUT its credentials allow: the recording call holds each kind to its limit. */
describe.each(await testedDialects())('the storage budget at the recording step on S3 on %s', (dialect) => {
  let t: TestApp;
  let s3: S3ObjectStore;
  let app: S3TestApp;

  beforeEach(async () => {
    app = await s3TestApp(dialect);
    ({ t } = app);
    s3 = app.s3.store;
  });
  afterEach(async () => app.close());

  it('refuses eight 19 MB frames at the record call, deletes each, and counts none against the quota', async () => {
    const { examId, anid } = (await seedDemo(t.db.handle.db, s3, PHONE, t.now()))!;
    const token = await t.loginCandidate(PHONE);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/start-exam?auth=${token}`,
      payload: { exam_id: examId, anid },
    });
    const prefix = `exams/${examId}/attempts/${body<{ attempt: { id: number } }>(started).data.attempt.id}/`;
    const huge = jpegOf(19 * MB);
    const record = (key: string, bytes: Buffer, n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/monitor/capture?auth=${token}`,
        payload: {
          exam_id: examId,
          kind: 'frame',
          key,
          sha256: sha(bytes),
          trigger_time: t.now(),
          client_id: `frame-${n}-of-test`,
        },
      });
    for (let n = 1; n <= 8; n++) {
      const key = `${prefix}frame/${n}.jpg`;
      await s3.put(key, huge);
      const res = await record(key, huge, n);
      expect([res.statusCode, body(res).code], `upload ${n}`).toEqual([413, 'evidence_too_large']);
      expect(await s3.head(key)).toBeNull();
    }
    const frame = jpegOf(200 * 1024);
    await s3.put(`${prefix}frame/9.jpg`, frame);
    expect((await record(`${prefix}frame/9.jpg`, frame, 9)).statusCode).toBe(200);
    const row = await t.db.handle.db
      .selectFrom('storage_usage')
      .selectAll()
      .where('prefix', '=', prefix)
      .executeTakeFirstOrThrow();
    expect({ bytes: Number(row.bytes), objects: Number(row.objects) }).toEqual({ bytes: frame.length, objects: 1 });
  });
});
