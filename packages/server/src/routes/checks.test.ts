import { randomUUID } from 'node:crypto';
import { RISK_EVENTS, type MonitorStateData } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { facePhoto, flatPhoto, twoFacesPhoto } from '../bench/facePhotos.js';
import { body } from '../test/app.js';
import { firstPicture, passChecks, recordCheck, sign } from '../test/checks.js';
import { testedDialects } from '../test/db.js';
import { candidateApp, setExamSettings } from '../test/examScenario.js';
import { multipart } from '../test/multipart.js';

/** The demo exam lets the candidate skip camera, microphone, screen and phone; these flags take that back. */
const NO_SKIPS = { is_skip_camera: 0, is_skip_microphone: 0, is_skip_screen: 0, is_skip_phone: 0 } as const;

describe.each(await testedDialects())('device checks before the exam on %s', (dialect) => {
  // One app per dialect: its face pool loads the models once.
  const s = candidateApp(dialect, { login: false, app: { env: { FACE_WORKERS: '1' } } });
  let phoneNo = 0;

  /** Sets the demo exam's check flags (read again by the next call: the catalog keeps the row a few seconds). */
  async function setFlags(flags: Record<string, 0 | 1>): Promise<void> {
    await setExamSettings(s.t, s.examId, flags);
    s.t.advance(11_000);
  }

  /** A new invited candidate with an attempt in the monitor phase. */
  async function candidate() {
    const phone = `1370000${String(++phoneNo).padStart(4, '0')}`;
    const anid = await s.t.invite(s.examId, phone);
    const token = await s.t.loginCandidate(phone);
    const post = (url: string, payload: object) =>
      s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${token}`, payload });
    const started = await post('/monitor/start-exam', { exam_id: s.examId, anid });
    expect(started.statusCode, started.body).toBe(200);
    const attempt = body<{ attempt: { id: number; exam_id: number } }>(started).data.attempt;
    return {
      phone,
      anid,
      token,
      attempt,
      enter: () => post('/monitor/start-exam', { exam_id: s.examId, anid, phase: 2 }),
      check: (step: -5 | -4 | -3 | -2 | -1, result: 'passed' | 'skipped') =>
        recordCheck(s.t, token, s.examId, step, result),
      state: async () =>
        body<MonitorStateData>(await s.t.app.inject(`/api/monitor/state?exam_id=${s.examId}&auth=${token}`)).data,
      risks: () =>
        s.t.db.handle.db
          .selectFrom('risk_records')
          .select('risk')
          .where('attempt_id', '=', attempt.id)
          .where('kind', '=', 'risk')
          .orderBy('id')
          .execute()
          .then((rows) => rows.map((r) => r.risk)),
    };
  }

  it('refuses entering the exam while a required check has not passed, naming the steps missing', async () => {
    await setFlags(NO_SKIPS);
    const c = await candidate();
    const refused = await c.enter();
    expect([refused.statusCode, body(refused).code]).toEqual([409, 'checks_incomplete']);
    expect(body(refused).msg).toBe(
      'these checks have not passed: camera, microphone, screenSharing, mobileDevice, signature',
    );

    expect((await c.check(-4, 'passed')).statusCode).toBe(200);
    expect((await c.check(-3, 'passed')).statusCode).toBe(200);
    await sign(s.t, c.token, c.attempt);
    expect((await c.check(-1, 'passed')).statusCode).toBe(200);
    expect(body(await c.enter()).msg).toBe('these checks have not passed: camera, mobileDevice');
    // Still in the checks: nothing started the clock.
    expect((await c.state()).checks.map((x) => x.step).sort()).toEqual([-4, -3, -1].sort());
    const row = await s.t.db.handle.db
      .selectFrom('attempts')
      .select(['phase', 'started_at'])
      .where('id', '=', c.attempt.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ phase: 1, started_at: null });
  });

  it('accepts a skip only where the exam allows it, records it as a skip with its risk, and lets the candidate in', async () => {
    await setFlags(NO_SKIPS);
    const c = await candidate();
    for (const step of [-5, -4, -3, -2, -1] as const) {
      const res = await c.check(step, 'skipped');
      expect([res.statusCode, body(res).code]).toEqual([409, 'step_not_skippable']);
    }
    expect(await c.risks()).toEqual([]);

    await setFlags({ is_skip_camera: 1, is_skip_phone: 1 });
    expect((await c.check(-5, 'skipped')).statusCode).toBe(200);
    expect((await c.check(-2, 'skipped')).statusCode).toBe(200);
    expect(await c.risks()).toEqual([RISK_EVENTS.skipCamera.id, RISK_EVENTS.skipSecondCamera.id]);
    expect(body(await c.enter()).msg).toBe('these checks have not passed: microphone, screenSharing, signature');
    await passChecks(s.t, c.token, s.examId, c.anid, { skip: ['camera', 'mobileDevice'] });
    const state = await c.state();
    expect(Object.fromEntries(state.checks.map((x) => [x.step, x.result]))).toEqual({
      '-5': 'skipped',
      '-4': 'passed',
      '-3': 'passed',
      '-2': 'skipped',
      '-1': 'passed',
    });
    const entered = await c.enter();
    expect(entered.statusCode, entered.body).toBe(200);
    expect(body<{ attempt: { phase: number } }>(entered).data.attempt.phase).toBe(2);

    // A skip recorded while the exam allowed it no longer counts once the exam takes the permission back.
    await setFlags(NO_SKIPS);
    const late = await candidate();
    await setFlags({ is_skip_camera: 1 });
    expect((await late.check(-5, 'skipped')).statusCode).toBe(200);
    await setFlags({ is_skip_camera: 0 });
    expect(body(await late.enter()).msg).toMatch(/^these checks have not passed: camera,/);
  });

  it('counts the camera as passed only on a first picture with exactly one face', async () => {
    await setFlags(NO_SKIPS);
    const c = await candidate();
    const noPicture = await c.check(-5, 'passed');
    expect([noPicture.statusCode, body(noPicture).code]).toEqual([409, 'camera_check_failed']);
    expect(body(noPicture).msg).toMatch(/no first picture/);

    await firstPicture(s.t, c.token, c.attempt, flatPhoto());
    const none = await c.check(-5, 'passed');
    expect([none.statusCode, body(none).code, body(none).msg]).toEqual([
      409,
      'camera_check_failed',
      'no face in the first picture',
    ]);
    await firstPicture(s.t, c.token, c.attempt, twoFacesPhoto('a', 'd'));
    const two = await c.check(-5, 'passed');
    expect([two.statusCode, body(two).code, body(two).msg]).toEqual([
      409,
      'camera_check_failed',
      'more than one face in the first picture',
    ]);
    expect((await c.state()).checks.find((x) => x.step === -5)).toBeUndefined();

    // The candidate retakes the picture facing the camera alone: the pass records the face count it rests on.
    await firstPicture(s.t, c.token, c.attempt, facePhoto('a'));
    const passed = await c.check(-5, 'passed');
    expect(passed.statusCode, passed.body).toBe(200);
    const record = await s.t.db.handle.db
      .selectFrom('risk_records')
      .select('detail')
      .where('attempt_id', '=', c.attempt.id)
      .where('kind', '=', 'check')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(record.detail)).toMatchObject({ step: -5, result: 'passed', faces: 1, id_similarity: null });
    expect((await c.state()).checks).toContainEqual({ step: -5, result: 'passed' });
  }, 60_000);

  it('passes the camera only on a face matching the ID photo, and the phone only once its page has reported', async () => {
    await setFlags(NO_SKIPS);
    const c = await candidate();
    const staff = await s.t.loginStaff('admin');
    const form = multipart(
      { exam_id: String(s.examId), phone: c.phone, area_code: '86' },
      { name: 'id.jpg', type: 'image/jpeg', data: facePhoto('b'), field: 'id_photo' },
    );
    const set = await s.t.app.inject({
      method: 'POST',
      url: '/api/admin/proctor/id-photo',
      ...form,
      headers: { ...form.headers, authorization: `Bearer ${staff}` },
    });
    expect(set.statusCode, set.body).toBe(200);
    await firstPicture(s.t, c.token, c.attempt, facePhoto('a'));
    const other = await c.check(-5, 'passed');
    expect([other.statusCode, body(other).code, body(other).msg]).toEqual([
      409,
      'camera_check_failed',
      'the face in the first picture does not match the ID photo',
    ]);
    await firstPicture(s.t, c.token, c.attempt, facePhoto('b'));
    expect((await c.check(-5, 'passed')).statusCode).toBe(200);

    const phone = await c.check(-2, 'passed');
    expect([phone.statusCode, body(phone).code]).toEqual([409, 'phone_not_connected']);
    await passChecks(s.t, c.token, s.examId, c.anid, { skip: [], picture: facePhoto('b') });
    const entered = await c.enter();
    expect(entered.statusCode, entered.body).toBe(200);
    // Idempotent by client id: a retried pass answers the first record.
    const clientId = randomUUID();
    const retry = { exam_id: s.examId, step: -4, result: 'passed', client_id: clientId };
    const first = await s.t.app.inject({ method: 'POST', url: `/api/monitor/check?auth=${c.token}`, payload: retry });
    const again = await s.t.app.inject({ method: 'POST', url: `/api/monitor/check?auth=${c.token}`, payload: retry });
    expect(body<{ id: number }>(again).data.id).toBe(body<{ id: number }>(first).data.id);
  }, 60_000);
});
