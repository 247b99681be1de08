/**
 * The server's half of face monitoring, through the candidate's calls: frames recorded with /monitor/capture and
 * the browser's flags with /monitor/record-risk queue checks, which the sweep does with the real face engine on
 * both dialects: a flag's verdict (agreeing or not) joins the chain, a sampled frame with a problem the browser
 * did not raise gets its risk record, and no check is done twice however many sweeps run at once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describeDetail, detail, RISK_EVENTS, type StsData } from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { facePhoto, flatPhoto, twoFacesPhoto } from '../bench/facePhotos.js';
import { body } from '../test/app.js';
import { candidateApp, startWithoutChecks } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { FaceCheckRepository } from '../repositories/faceChecks.js';
import {
  FACE_CHECK_BATCH,
  FACE_CHECK_MAX_TRIES,
  FACE_SAMPLE_STALE_MS,
  FACE_SWEEP_BUDGET_MS,
  FaceVerificationService,
} from './faceVerification.js';

const PHONE = '13800138000';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(await testedDialects())('face checks of exam frames on %s', (dialect) => {
  // Every frame the browser does not flag is sampled here, so each case is checked.
  const s = candidateApp(dialect, { phone: PHONE, app: { env: { FACE_WORKERS: '1', FACE_SAMPLE_EVERY: '1' } } });
  let attemptId: number;
  let prefix: string;
  const pictures = { a: facePhoto('a'), flat: flatPhoto(), two: twoFacesPhoto('a', 'd') };

  const get = (url: string) => s.t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${s.token}`);
  const post = (url: string, payload: object) =>
    s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${s.token}`, payload });
  const records = () =>
    s.t.db.handle.db.selectFrom('risk_records').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();

  /** Uploads a picture and records it as a camera frame; answers its key and record id. */
  const frame = async (picture: Buffer): Promise<{ key: string; id: number }> => {
    const key = `${prefix}frame/${randomUUID()}.jpg`;
    await s.t.store.put(key, picture);
    const res = await post('/monitor/capture', {
      exam_id: s.examId,
      kind: 'frame',
      key,
      sha256: sha(picture),
      trigger_time: s.t.now(),
      client_id: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { key, id: body<{ id: number }>(res).data.id };
  };
  /** The browser's risk record (form fields, as the page sends them); answers its id. */
  const flag = async (risk: number, text: string, imageKey?: string): Promise<number> => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${s.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        exam_id: String(s.examId),
        risk: String(risk),
        trigger_time: String(s.t.now()),
        detail: text,
        client_id: randomUUID(),
        ...(imageKey ? { image_key: imageKey } : {}),
      }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ id: number }>(res).data.id;
  };
  const checks = () => s.t.services.faceVerification.ofAttempt(attemptId);
  /** Sweeps until nothing is left to do. */
  const sweepAll = async () => {
    for (let i = 0; i < 20 && (await checks()).some((c) => c.status === 'pending'); i++) {
      await s.t.services.faceVerification.sweep();
    }
  };

  beforeAll(async () => {
    attemptId = await startWithoutChecks(s.t, s.token, s.examId, s.anid);
    prefix = body<StsData>(await get(`/sts/get-token?exam_id=${s.examId}`)).data.prefix;
    const first = `${prefix}first/1.jpg`;
    await s.t.store.put(first, pictures.a);
    const res2 = await post('/monitor/first-picture', { exam_id: s.examId, key: first, sha256: sha(pictures.a) });
    expect(res2.statusCode, res2.body).toBe(200);
  });

  it("records the server's verdict on the browser's flags: agreeing on an empty frame, not on a face", async () => {
    const empty = await frame(pictures.flat);
    const right = await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), empty.key);
    const face = await frame(pictures.a);
    const wrong = await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), face.key);
    // queued in the call, done by the sweep
    expect((await checks()).filter((c) => c.source === 'flagged').map((c) => [c.record_id, c.status])).toEqual([
      [right, 'pending'],
      [wrong, 'pending'],
    ]);
    await sweepAll();

    const byRecord = new Map((await checks()).map((c) => [c.record_id, c]));
    expect(byRecord.get(right)).toMatchObject({ status: 'done', agrees: 1, faces: 0, server_finding: 'noFace' });
    expect(byRecord.get(wrong)).toMatchObject({ status: 'done', agrees: 0, faces: 1, server_finding: null });
    const rows = await records();
    const verdict = (id: number) =>
      rows.find((r) => {
        const d = describeDetail(r.detail);
        return r.kind === 'face' && d?.key === 'faceVerified' && d.params.record === id;
      });
    expect(describeDetail(verdict(right)!.detail)).toEqual({
      key: 'faceVerified',
      params: { record: right, agrees: true, faces: 0, phone: expect.any(Number), finding: 'noFace' },
    });
    expect(verdict(right)).toMatchObject({ image_key: empty.key, sha256: sha(pictures.flat), risk: 0 });
    expect(byRecord.get(right)!.result_record_id).toBe(verdict(right)!.id);
    expect(describeDetail(verdict(wrong)!.detail)).toMatchObject({
      params: { agrees: false, faces: 1, finding: null },
    });
    // the frames the browser flagged were sampled too, and checked once (by their flag's check): no second record
    const sampled = (await checks()).filter((c) => c.source === 'sampled');
    expect(sampled.map((c) => [c.record_id, c.status, c.faces])).toEqual([
      [empty.id, 'done', null],
      [face.id, 'done', null],
    ]);
    expect(rows.filter((r) => r.image_key === empty.key && r.kind === 'risk')).toHaveLength(1);
    expect((await s.t.services.verification.verify(attemptId)).problems).toEqual([]);
  }, 120_000);

  it('raises what a sampled frame shows that the browser did not, and nothing for a good frame', async () => {
    const two = await frame(pictures.two);
    const good = await frame(pictures.a);
    await sweepAll();
    const byRecord = new Map((await checks()).map((c) => [c.record_id, c]));
    expect(byRecord.get(two.id)).toMatchObject({
      source: 'sampled',
      status: 'done',
      faces: 2,
      server_finding: 'faces',
    });
    expect(byRecord.get(good.id)).toMatchObject({ status: 'done', faces: 1, server_finding: null });
    expect(byRecord.get(good.id)!.result_record_id).toBeNull();
    const raised = (await records()).filter((r) => r.kind === 'risk' && r.image_key === two.key);
    expect(raised.map((r) => [r.id, r.risk, r.category, r.detail])).toEqual([
      [byRecord.get(two.id)!.result_record_id, RISK_EVENTS.firstCameraAbnormal.id, 2, detail.faces(2)],
    ]);
    expect((await records()).filter((r) => r.image_key === good.key).map((r) => r.kind)).toEqual(['frame']);
  }, 120_000);

  it('queues only face findings that name a picture, and each record once', async () => {
    const before = (await checks()).length;
    await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace());
    await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.trackEnded('camera', 'cam'), `${prefix}frame/x.jpg`);
    await flag(RISK_EVENTS.copyPasteOutside.id, detail.noFace(), `${prefix}frame/x.jpg`);
    const f = await frame(pictures.a);
    const queued = await s.t.services.faceVerification.flagged({
      attemptId,
      recordId: f.id,
      risk: RISK_EVENTS.phoneUse.id,
      detail: detail.phoneSeen(0.5),
      imageKey: f.key,
    });
    expect(queued).toBe(false); // the frame's own record id is already queued (as a sample)
    expect((await checks()).length).toBe(before + 1);
    await sweepAll();
  }, 120_000);

  it('does each check once when sweeps run side by side (two processes)', async () => {
    const a = await frame(pictures.flat);
    const b = await frame(pictures.two);
    const flags = [
      await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), a.key),
      await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.faces(2), b.key),
    ];
    const done = await Promise.all([s.t.services.faceVerification.sweep(), s.t.services.faceVerification.sweep()]);
    await sweepAll();
    expect(done.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(4);
    const rows = await records();
    for (const id of flags) {
      const verdicts = rows.filter((r) => {
        const d = describeDetail(r.detail);
        return d?.key === 'faceVerified' && d.params.record === id;
      });
      expect(verdicts, `verdicts of ${id}`).toHaveLength(1);
      expect(describeDetail(verdicts[0]!.detail)).toMatchObject({ params: { agrees: true } });
    }
  }, 120_000);

  it('tries a flag whose picture is not (yet) stored a few times, then gives it up', async () => {
    const missing = `${prefix}frame/never-uploaded.jpg`;
    const id = await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), missing);
    for (let i = 1; i < FACE_CHECK_MAX_TRIES; i++) {
      await s.t.services.faceVerification.sweep();
      expect((await checks()).find((c) => c.record_id === id)!.status).toBe('pending');
    }
    await s.t.services.faceVerification.sweep();
    expect((await checks()).find((c) => c.record_id === id)).toMatchObject({
      status: 'failed',
      tries: FACE_CHECK_MAX_TRIES,
    });
  });

  it("takes the browsers' flags before the sampled frames queued earlier", async () => {
    const sampled = [await frame(pictures.a), await frame(pictures.a), await frame(pictures.a)];
    const flagged = await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), sampled[0]!.key);
    const repo = new FaceCheckRepository(s.t.db.handle.db);
    const now = s.t.now();
    const first = await repo.claim(now, 1, now + 60_000);
    expect(first.map((c) => [c.source, c.record_id])).toEqual([['flagged', flagged]]);
    const next = await repo.claim(now, 2, now + 60_000);
    expect(next.map((c) => [c.source, c.record_id])).toEqual([
      ['sampled', sampled[0]!.id],
      ['sampled', sampled[1]!.id],
    ]);
    for (const c of [...first, ...next]) await repo.release(c.id);
    await sweepAll();
  }, 120_000);

  it('skips a sampled frame left unchecked past its use, never a flag of the same age', async () => {
    const sampled = await frame(pictures.two);
    const flagged = await flag(RISK_EVENTS.firstCameraAbnormal.id, detail.noFace(), sampled.key);
    await s.t.db.handle.db
      .updateTable('face_checks')
      .set({ created_at: s.t.now() - FACE_SAMPLE_STALE_MS - 1 })
      .where('record_id', 'in', [sampled.id, flagged])
      .execute();
    await sweepAll();
    const byRecord = new Map((await checks()).map((c) => [c.record_id, c]));
    expect(byRecord.get(sampled.id)).toMatchObject({ source: 'sampled', status: 'skipped', faces: null });
    expect(byRecord.get(flagged)).toMatchObject({ source: 'flagged', status: 'done', faces: 2 });
    // the skipped sample raised nothing; the flag got its verdict
    const rows = await records();
    expect(
      rows.filter((r) => r.kind === 'risk' && r.image_key === sampled.key && r.detail === detail.faces(2)),
    ).toEqual([]);
  }, 120_000);

  it('works through more than one batch in one sweep while checks wait', async () => {
    const frames: { key: string; id: number }[] = [];
    for (let i = 0; i < FACE_CHECK_BATCH + 3; i++) frames.push(await frame(pictures.a));
    const finished = await s.t.services.faceVerification.sweep();
    expect(finished).toBeGreaterThanOrEqual(frames.length);
    const byRecord = new Map((await checks()).map((c) => [c.record_id, c]));
    for (const f of frames) expect(byRecord.get(f.id)?.status, `frame ${f.id}`).toBe('done');
  }, 180_000);

  it("stops taking batches once the sweep's budget is spent, leaving the rest to the next run", async () => {
    const frames: { key: string; id: number }[] = [];
    for (let i = 0; i < FACE_CHECK_BATCH + 2; i++) frames.push(await frame(pictures.a));
    // A clock that has moved past the budget by the time the first batch is done.
    let reads = 0;
    const slow = new FaceVerificationService(
      s.t.db.handle.db,
      s.t.services.attempts,
      s.t.services.faceCheck,
      s.t.services.risk,
      s.t.store,
      {
        sampleEvery: 1,
        clock: () => s.t.now() + (reads++ > 1 ? FACE_SWEEP_BUDGET_MS : 0),
        log: { warn: () => undefined } as never,
      },
    );
    expect(await slow.sweep()).toBe(FACE_CHECK_BATCH);
    const pending = (await checks()).filter((c) => frames.some((f) => f.id === c.record_id) && c.status === 'pending');
    expect(pending).toHaveLength(2);
    await sweepAll();
  }, 180_000);

  it('samples about one in N of the frames the browser did not flag', async () => {
    let n = 0;
    const sampling = (sampleEvery: number, draw?: (k: number) => number) =>
      new FaceVerificationService(
        s.t.db.handle.db,
        s.t.services.attempts,
        s.t.services.faceCheck,
        s.t.services.risk,
        s.t.store,
        {
          sampleEvery,
          clock: s.t.now,
          log: { warn: () => undefined } as never,
          ...(draw ? { draw } : {}),
        },
      );
    const every3 = sampling(3, (k) => n++ % k);
    const base = 1_000_000 + Math.floor(Math.random() * 1000) * 100;
    const picked: boolean[] = [];
    for (let i = 0; i < 9; i++)
      picked.push(await every3.frameRecorded({ attemptId, recordId: base + i, key: `${prefix}frame/s${i}.jpg` }));
    expect(picked.filter(Boolean)).toHaveLength(3);
    const none = sampling(0);
    expect(await none.frameRecorded({ attemptId, recordId: base + 50, key: `${prefix}frame/t.jpg` })).toBe(false);
    // leave nothing for the other cases' sweeps
    await s.t.db.handle.db.deleteFrom('face_checks').where('record_id', '>=', base).execute();
  });
});
