import { createHash } from 'node:crypto';
import { describeDetail, type MonitorStateData, type StsData, type VerifyEvidenceData } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProctorChange } from '../proctoring/notifier.js';
import { seedDemo } from '../services/demoSeed.js';
import type { S3ObjectStore } from '../storage/s3ObjectStore.js';
import { body, type TestApp } from '../test/app.js';
import { HTML_PAGE, signedFor } from '../test/media.js';
import { testedDialects } from '../test/db.js';
import { candidateApp, setExamSettings } from '../test/examScenario.js';
import { s3TestApp, type S3TestApp } from '../test/s3rver.js';
import { enterExam } from '../test/checks.js';

const PHONE = '13800138000';
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
let seq = 0;
const cid = () => `client-${Date.now()}-${++seq}`;

describe.each(await testedDialects())('evidence calls on %s', (dialect) => {
  const s = candidateApp(dialect, { each: true, phone: PHONE });
  let changes: ProctorChange[];

  beforeEach(() => {
    changes = [];
    s.t.services.notifier.listen((c) => changes.push(c));
  });

  const get = (url: string, tok = s.token) => s.t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${tok}`);
  const post = (url: string, payload: object, tok = s.token) =>
    s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${tok}`, payload });
  const start = async (phase?: 2) => {
    const res = phase
      ? await enterExam(s.t, s.token, s.examId, s.anid)
      : await post('/monitor/start-exam', { exam_id: s.examId, anid: s.anid });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ attempt: { id: number } }>(res).data.attempt.id;
  };
  const prefixOf = async () => body<StsData>(await get(`/sts/get-token?exam_id=${s.examId}`)).data.prefix;
  /** Puts bytes in storage as the browser would, and answers the fields an evidence call needs. */
  const upload = async (key: string, text = `bytes of ${key}`) => {
    const bytes = signedFor(key, text);
    await s.t.store.put(key, bytes);
    return { key, sha256: sha(bytes) };
  };
  const settle = () => new Promise((r) => setTimeout(r, 10));
  /** Records an uploaded object as a capture of `kind` taken at `at`, with a new client id. */
  const sendCapture = (kind: string, uploaded: { key: string; sha256: string }, at = s.t.now(), extra: object = {}) =>
    post('/monitor/capture', { exam_id: s.examId, kind, ...uploaded, trigger_time: at, ...extra, client_id: cid() });

  it('issues upload credentials only for an own, started attempt', async () => {
    const none = await get(`/sts/get-token?exam_id=${s.examId}`);
    expect(body(none).code).toBe('exam_not_started');
    expect(body(await get(`/sts/get-token?exam_id=${s.examId + 100}`)).code).toBe('exam_detail_missing');
    expect((await s.t.app.inject(`/api/sts/get-token?exam_id=${s.examId}`)).statusCode).toBe(401);
    const attemptId = await start();
    const sts = body<StsData>(await get(`/sts/get-token?exam_id=${s.examId}`)).data;
    expect(sts).toMatchObject({
      prefix: `exams/${s.examId}/attempts/${attemptId}/`,
      bucket: 'examhall',
      endpoint: `${s.t.config.publicUrl}/storage`,
    });
    expect(sts.AccessKeySecret).not.toBe('');
    expect(s.t.logs.join('')).not.toContain(sts.AccessKeySecret);
  });

  it('records captures only for objects under the attempt, present and matching their SHA-256, once per client id', async () => {
    const attemptId = await start(2);
    const prefix = await prefixOf();
    const frame = await upload(`${prefix}frame/1.jpg`);
    const base = { exam_id: s.examId, kind: 'frame', trigger_time: s.t.now() };

    const outside = await upload(`exams/${s.examId}/attempts/${attemptId + 1}/frame/1.jpg`);
    expect(body(await post('/monitor/capture', { ...base, ...outside, client_id: cid() })).code).toBe(
      'key_outside_attempt',
    );
    const sneaky = { key: `${prefix}../${attemptId + 1}/frame/1.jpg`, sha256: outside.sha256 };
    expect(body(await post('/monitor/capture', { ...base, ...sneaky, client_id: cid() })).code).toBe(
      'key_outside_attempt',
    );
    expect(
      body(
        await post('/monitor/capture', {
          ...base,
          key: `${prefix}frame/none.jpg`,
          sha256: frame.sha256,
          client_id: cid(),
        }),
      ).code,
    ).toBe('evidence_missing');
    expect(
      body(await post('/monitor/capture', { ...base, key: frame.key, sha256: sha('other'), client_id: cid() })).code,
    ).toBe('evidence_digest_mismatch');

    const clientId = cid();
    const first = await post('/monitor/capture', { ...base, ...frame, client_id: clientId });
    expect(first.statusCode, first.body).toBe(200);
    const saved = body<{ id: number; hash: string }>(first).data;
    expect(saved.hash).toMatch(/^[0-9a-f]{64}$/);
    const again = body<{ id: number; hash: string }>(
      await post('/monitor/capture', { ...base, ...frame, client_id: clientId }),
    );
    expect(again.data).toEqual(saved);
    await settle();
    expect(changes).toContainEqual({ type: 'record', attemptId, recordId: saved.id });

    const row = await s.t.db.handle.db
      .selectFrom('risk_records')
      .selectAll()
      .where('id', '=', saved.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'frame', sha256: frame.sha256, image_key: frame.key, risk: 0 });
    expect(Number(row.size)).toBe(signedFor(frame.key, `bytes of ${frame.key}`).length);

    // Screen captures, offline pictures, pertinent moments and bytes.
    const screen = await upload(`${prefix}screen/1.png`);
    expect((await post('/monitor/capture', { ...base, kind: 'screen', ...screen, client_id: cid() })).statusCode).toBe(
      200,
    );
    const offline = await upload(`${prefix}frame/2.jpg`);
    expect((await post('/monitor/capture', { ...base, ...offline, offline: true, client_id: cid() })).statusCode).toBe(
      200,
    );
    const pertinent = await upload(`${prefix}pertinent/1.jpg`);
    const p1 = await post('/answer/pertinent-moment', { exam_id: s.examId, ...pertinent, time: s.t.now() });
    expect(p1.statusCode, p1.body).toBe(200);
    // Retried without a client id: the key makes it idempotent.
    expect(
      body(await post('/answer/pertinent-moment', { exam_id: s.examId, ...pertinent, time: s.t.now() })).data,
    ).toEqual(body(p1).data);
    const rec = await upload(`${prefix}byte/1.webm`);
    expect(
      (await post('/answer/byte', { exam_id: s.examId, ...rec, time: s.t.now(), duration_ms: 3000 })).statusCode,
    ).toBe(200);

    const state = body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data;
    expect(state.frames.map((f) => f.key)).toEqual([frame.key, offline.key]);
    expect(state.frames.every((f) => f.isSuccess)).toBe(true);
    expect(state.offlineImages).toBe(1);
    expect(state.pertinents).toHaveLength(1);
    expect(state.bytes).toHaveLength(1);
    expect(state.capture_interval).toBe(30);
  });

  it('answers 4xx, never 500, for keys that are too long, name a folder or sit under an object', async () => {
    await start(2);
    const prefix = await prefixOf();
    const frame = await upload(`${prefix}frame/1.jpg`);
    const capture = (key: string) =>
      post('/monitor/capture', {
        exam_id: s.examId,
        kind: 'frame',
        trigger_time: s.t.now(),
        key,
        sha256: frame.sha256,
        client_id: cid(),
      });
    const longSegment = await capture(`${prefix}frame/${'a'.repeat(256)}`);
    expect(longSegment.statusCode).toBe(422);
    expect(body(longSegment)).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(body(longSegment).msg).toContain('255 bytes');
    for (const key of [`${prefix}frame`, `${prefix}frame/1.jpg/2.jpg`]) {
      const res = await capture(key);
      expect(res.statusCode, key).toBe(422);
      expect(body(res).code).toBe('evidence_missing');
    }
    for (const [url, payload] of [
      ['/monitor/first-picture', { exam_id: s.examId, key: `${prefix}frame`, sha256: frame.sha256 }],
      ['/answer/pertinent-moment', { exam_id: s.examId, key: `${prefix}frame/1.jpg/x`, sha256: frame.sha256, time: 1 }],
      [
        '/answer/byte',
        { exam_id: s.examId, key: `${prefix}${'b'.repeat(280)}`, sha256: frame.sha256, time: 1, duration_ms: 1 },
      ],
    ] as const) {
      const res = await post(url, payload);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect(s.t.logs.join('')).not.toContain('"level":50');
  });

  it('refuses a capture or recording whose stored bytes are not a picture or a recording, whatever its name says', async () => {
    await start(2);
    const prefix = await prefixOf();
    const plant = async (key: string, bytes: Buffer) => {
      await s.t.store.put(key, bytes);
      return { key, sha256: sha(bytes) };
    };
    const html = await plant(`${prefix}frame/page.png`, HTML_PAGE);
    for (const kind of ['frame', 'screen', 'signature'] as const) {
      const res = await post('/monitor/capture', {
        exam_id: s.examId,
        kind,
        trigger_time: s.t.now(),
        ...html,
        client_id: cid(),
      });
      expect(res.statusCode, kind).toBe(415);
      expect(body(res)).toMatchObject({ status: 'error', code: 'unsupported_media_type' });
    }
    const first = await post('/monitor/first-picture', { exam_id: s.examId, ...html });
    expect(body(first).code).toBe('unsupported_media_type');
    const pertinent = await post('/answer/pertinent-moment', { exam_id: s.examId, ...html, time: s.t.now() });
    expect(body(pertinent).code).toBe('unsupported_media_type');
    // A recording must be one: a JPEG named .webm is refused too.
    const notSound = await plant(`${prefix}byte/1.webm`, signedFor('x.jpg', 'a picture'));
    const byte = await post('/answer/byte', { exam_id: s.examId, ...notSound, time: s.t.now(), duration_ms: 1000 });
    expect(body(byte).code).toBe('unsupported_media_type');
    // The real thing still passes.
    const frame = await upload(`${prefix}frame/real.jpg`);
    const ok = await sendCapture('frame', frame);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('records device checks: skips where allowed with their risk, the microphone, and the signature only once signed', async () => {
    const attemptId = await start();
    const prefix = await prefixOf();
    const check = (step: number, result: string, device?: string) =>
      post('/monitor/check', { exam_id: s.examId, step, result, client_id: cid(), ...(device ? { device } : {}) });

    // No first picture yet: the camera has not passed (its rules are checks.test.ts's).
    expect(body(await check(-5, 'passed')).code).toBe('camera_check_failed');
    expect((await check(-5, 'skipped')).statusCode).toBe(200);
    expect((await check(-4, 'passed', 'mic-device-1')).statusCode).toBe(200);
    expect((await check(-3, 'skipped')).statusCode).toBe(200);
    expect((await check(-2, 'skipped')).statusCode).toBe(200);
    expect(body(await check(-1, 'skipped')).code).toBe('step_not_skippable');
    expect(body(await check(-1, 'passed')).code).toBe('evidence_missing');

    const signature = await upload(`${prefix}signature/s.png`);
    const signed = await sendCapture('signature', signature);
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await check(-1, 'passed')).statusCode).toBe(200);
    const picture = await upload(`${prefix}first/1.jpg`);
    expect((await post('/monitor/first-picture', { exam_id: s.examId, ...picture })).statusCode).toBe(200);

    const risks = await s.t.db.handle.db
      .selectFrom('risk_records')
      .select(['risk', 'category', 'kind'])
      .where('attempt_id', '=', attemptId)
      .where('kind', '=', 'risk')
      .orderBy('id')
      .execute();
    expect(risks).toEqual([
      { risk: 15, category: 3, kind: 'risk' },
      { risk: 17, category: 3, kind: 'risk' },
      { risk: 18, category: 3, kind: 'risk' },
    ]);
    const state = body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data;
    expect(state).toMatchObject({
      firstPicture: picture.key,
      signature: signature.key,
      microphoneId: 'mic-device-1',
      mobileDeviceStatus: 0,
    });
    expect(state.checks).toEqual([
      { step: -5, result: 'skipped' },
      { step: -4, result: 'passed' },
      { step: -3, result: 'skipped' },
      { step: -2, result: 'skipped' },
      { step: -1, result: 'passed' },
    ]);
    await settle();
    expect(changes.filter((c) => c.type === 'attempt' && c.attemptId === attemptId).length).toBeGreaterThanOrEqual(2);

    // An exam that does not allow skipping the camera refuses it.
    await setExamSettings(s.t, s.examId, { is_skip_camera: 0 });
    s.t.advance(11_000);
    expect(body(await check(-5, 'skipped')).code).toBe('step_not_skippable');
  });

  it('writes check, skip, pertinent and recording details in the shared vocabulary', async () => {
    const attemptId = await start();
    const prefix = await prefixOf();
    await post('/monitor/check', { exam_id: s.examId, step: -4, result: 'passed', device: 'mic-1', client_id: cid() });
    await post('/monitor/check', { exam_id: s.examId, step: -2, result: 'skipped', client_id: cid() });
    const pertinent = await upload(`${prefix}pertinent/1.jpg`);
    await post('/answer/pertinent-moment', { exam_id: s.examId, ...pertinent, time: s.t.now(), risk_id: 1 });
    const rec = await upload(`${prefix}byte/1.webm`);
    await post('/answer/byte', { exam_id: s.examId, ...rec, time: s.t.now(), duration_ms: 3000 });
    const rows = await s.t.db.handle.db
      .selectFrom('risk_records')
      .select(['kind', 'detail'])
      .where('attempt_id', '=', attemptId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => ({ kind: r.kind, detail: describeDetail(r.detail) }))).toEqual([
      { kind: 'check', detail: { key: 'check', params: { step: -4, result: 'passed', device: 'mic-1' } } },
      { kind: 'check', detail: { key: 'check', params: { step: -2, result: 'skipped', device: null } } },
      { kind: 'risk', detail: { key: 'stepSkipped', params: { step: -2 } } },
      { kind: 'pertinent', detail: { key: 'riskPicture', params: { record: 1 } } },
      { kind: 'byte', detail: { key: 'recording', params: { ms: 3000 } } },
    ]);
    // The monitor state still reads the check records it writes.
    const state = body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data;
    expect(state.checks).toEqual([
      { step: -4, result: 'passed' },
      { step: -2, result: 'skipped' },
    ]);
  });

  it('takes fast risk records as sendBeacon sends them (form body, auth in the query)', async () => {
    const attemptId = await start(2);
    const form = new URLSearchParams({
      exam_id: String(s.examId),
      risk: '3',
      trigger_time: String(s.t.now()),
      client_id: cid(),
    });
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/fast-record-risk?auth=${s.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      payload: form.toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<{ id: number; hash: string }>(res).data;
    expect(Object.keys(data).sort()).toEqual(['hash', 'id']);
    const row = await s.t.db.handle.db
      .selectFrom('risk_records')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempt_id: attemptId, risk: 3, category: 1, kind: 'risk' });
    // A picture named in a risk record must be the attempt's own.
    const foreign = new URLSearchParams({
      exam_id: String(s.examId),
      risk: '3',
      trigger_time: String(s.t.now()),
      image_key: `exams/${s.examId}/attempts/${attemptId + 1}/frame/1.jpg`,
      client_id: cid(),
    });
    const refused = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${s.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: foreign.toString(),
    });
    expect(body(refused).code).toBe('key_outside_attempt');
    const bad = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/fast-record-risk?auth=${s.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'exam_id=x&risk=999',
    });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses writes after the end, except captures taken before it that arrive within the grace period', async () => {
    await start(2);
    const prefix = await prefixOf();
    const before = s.t.now();
    const frame = await upload(`${prefix}frame/offline.jpg`);
    const pertinent = await upload(`${prefix}pertinent/offline.jpg`);
    s.t.advance(1000);
    expect((await post('/monitor/finish-exam', { exam_id: s.examId })).statusCode).toBe(200);
    s.t.advance(60_000);

    expect(
      body(await post('/monitor/check', { exam_id: s.examId, step: -5, result: 'passed', client_id: cid() })).code,
    ).toBe('exam_finished');
    const sig = await upload(`${prefix}signature/late.png`);
    expect(body(await sendCapture('signature', sig, before)).code).toBe('exam_finished');
    // Taken after the end: refused.
    const after = await upload(`${prefix}frame/after.jpg`);
    expect(body(await sendCapture('frame', after)).code).toBe('exam_finished');
    // Taken before the end, uploaded on reconnect: kept, and credentials are still given for the upload.
    expect((await get(`/sts/get-token?exam_id=${s.examId}`)).statusCode).toBe(200);
    const late = await sendCapture('frame', frame, before, { offline: true });
    expect(late.statusCode, late.body).toBe(200);
    expect((await post('/answer/pertinent-moment', { exam_id: s.examId, ...pertinent, time: before })).statusCode).toBe(
      200,
    );

    s.t.advance(15 * 60_000);
    const tooLate = await upload(`${prefix}frame/late2.jpg`);
    expect(body(await sendCapture('frame', tooLate, before)).code).toBe('exam_finished');
    expect(body(await get(`/sts/get-token?exam_id=${s.examId}`)).code).toBe('exam_finished');
  });

  it('counts the end of a timed-out attempt from its end time, not from when it was finally closed', async () => {
    await start(2);
    const prefix = await prefixOf();
    const endAt = body<{ attempt: { end_time: number } }>(
      await post('/monitor/start-exam', { exam_id: s.examId, anid: s.anid }),
    ).data.attempt.end_time;
    s.t.advance(endAt - s.t.now() + 5 * 60_000);
    const after = await upload(`${prefix}frame/after-end.jpg`);
    expect(body(await sendCapture('frame', after, endAt + 60_000)).code).toBe('exam_finished');
    const before = await upload(`${prefix}frame/before-end.jpg`);
    const kept = await sendCapture('frame', before, endAt - 1000, { offline: true });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('opens the phone page with a short-lived attempt-bound link and tracks whether the phone is connected', async () => {
    const attemptId = await start();
    const link = body<{ url: string; expires_at: number }>(
      await get(`/exam/wx-url-link?exam_id=${s.examId}&anid=${s.anid}`),
    ).data;
    expect(link.url.startsWith(`${s.t.config.publicUrl}/phone?auth=`)).toBe(true);
    const phoneToken = new URL(link.url).searchParams.get('auth')!;
    expect(phoneToken).not.toBe(s.token);
    // Stored only as a hash.
    const stored = await s.t.db.handle.db.selectFrom('auth_tokens').selectAll().where('kind', '=', 'phone').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(sha(phoneToken));
    expect(Number(stored[0]!.subject_id)).toBe(attemptId);

    const qr = body<{ image: string; url: string }>(
      await get(`/common/mini-qrcode?exam_id=${s.examId}&anid=${s.anid}`),
    ).data;
    expect(qr.image.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(qr.image.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect(qr.url).toMatch(/\/phone\?auth=/);
    expect(body(await get(`/exam/wx-url-link?exam_id=${s.examId}&anid=${s.anid + 99}`)).code).toBe(
      'exam_detail_missing',
    );

    const phone = (path: string) => s.t.app.inject(`/api${path}?auth=${phoneToken}`);
    // A candidate token is not a phone token, and the phone token is not a candidate token.
    expect(body(await s.t.app.inject(`/api/phone/session?auth=${s.token}`)).code).toBe('phone_link_invalid');
    expect((await get(`/monitor/state?exam_id=${s.examId}`, phoneToken)).statusCode).toBe(401);
    expect(body(await s.t.app.inject('/api/phone/session')).code).toBe('phone_link_invalid');

    expect(body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data.mobileDeviceStatus).toBe(0);
    const session = await phone('/phone/session');
    expect(session.statusCode, session.body).toBe(200);
    expect(body(session).data).toMatchObject({ exam_id: s.examId, capture_interval: 30, phase: 1, end_time: null });
    await settle();
    expect(changes).toContainEqual({ type: 'attempt', attemptId });
    expect(body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data.mobileDeviceStatus).toBe(1);

    const sts = body<StsData>(await phone('/phone/sts-token')).data;
    expect(sts.prefix).toBe(`exams/${s.examId}/attempts/${attemptId}/`);
    const pic = await upload(`${sts.prefix}phone/1.jpg`);
    const saved = await s.t.app.inject({
      method: 'POST',
      url: `/api/phone/picture?auth=${phoneToken}`,
      payload: { ...pic, trigger_time: s.t.now(), client_id: cid() },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const row = await s.t.db.handle.db
      .selectFrom('risk_records')
      .selectAll()
      .where('id', '=', body<{ id: number }>(saved).data.id)
      .executeTakeFirstOrThrow();
    expect(row.kind).toBe('phone');

    // The phone goes quiet: the status falls to 0 and the sweep announces it.
    changes.length = 0;
    s.t.advance(11_000);
    expect(body<MonitorStateData>(await get(`/monitor/state?exam_id=${s.examId}`)).data.mobileDeviceStatus).toBe(0);
    expect(await s.t.services.phone.sweep()).toBe(1);
    await settle();
    expect(changes).toContainEqual({ type: 'attempt', attemptId });
    expect(await s.t.services.phone.sweep()).toBe(0);

    // The link expires.
    s.t.advance(link.expires_at - s.t.now() + 1);
    expect(body(await phone('/phone/session')).code).toBe('phone_link_invalid');
  });

  it('reports a tampered record, a changed file and a missing file, through the admin call', async () => {
    const attemptId = await start(2);
    const prefix = await prefixOf();
    // The device checks came first: their records, and the signature's file.
    const checks = await s.t.services.verification.verify(attemptId);
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      const f = await upload(`${prefix}frame/${n}.jpg`);
      const r = await sendCapture('frame', f);
      ids.push(body<{ id: number }>(r).data.id);
    }
    // The catalogue declares this call form-encoded: fields travel as text.
    const risk = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${s.token}`,
      payload: new URLSearchParams({
        exam_id: String(s.examId),
        risk: '1',
        trigger_time: String(s.t.now()),
        client_id: cid(),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(risk.statusCode, risk.body).toBe(200);
    const staff = await s.t.loginStaff('admin');
    const verify = async () => {
      const res = await s.t.app.inject({
        url: `/api/admin/evidence/verify?attempt_id=${attemptId}`,
        headers: { authorization: `Bearer ${staff}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return body<VerifyEvidenceData>(res).data;
    };
    expect(await verify()).toEqual({ ok: true, records: checks.records + 4, files: checks.files + 3, problems: [] });
    expect(
      (await s.t.app.inject(`/api/admin/evidence/verify?attempt_id=${attemptId}&auth=${s.token}`)).statusCode,
    ).toBe(401);

    await s.t.db.handle.db
      .updateTable('risk_records')
      .set({ detail: 'nothing to see' })
      .where('id', '=', ids[0]!)
      .execute();
    await s.t.store.put(`${prefix}frame/2.jpg`, Buffer.from('replaced'));
    const v = await verify();
    expect(v.ok).toBe(false);
    expect(v.problems).toEqual([
      expect.objectContaining({ record_id: ids[0], kind: 'chain' }),
      expect.objectContaining({ record_id: ids[1], kind: 'digest' }),
    ]);
    const { rmSync } = await import('node:fs');
    rmSync(`${(s.t.store as unknown as { root: string }).root}/${prefix}frame/3.jpg`);
    expect((await verify()).problems).toContainEqual(expect.objectContaining({ record_id: ids[2], kind: 'missing' }));
    expect(
      body(
        await s.t.app.inject({
          url: '/api/admin/evidence/verify?attempt_id=999999',
          headers: { authorization: `Bearer ${staff}` },
        }),
      ).code,
    ).toBe('not_found');
  });
});

/** S3-compatible storage (s3rver, an independent implementation) takes any PUT: the recording step counts. */
describe.each(await testedDialects())('the storage quota at the recording step on S3 on %s', (dialect) => {
  let t: TestApp;
  let s3: S3ObjectStore;
  let app: S3TestApp;

  beforeEach(async () => {
    // The signature of the device checks, then two frames.
    app = await s3TestApp(dialect, { STORAGE_QUOTA_MAX_OBJECTS: '3' });
    ({ t } = app);
    s3 = app.s3.store;
  });
  afterEach(async () => app.close());

  it('refuses recording past the quota, deletes the object, and leaves other attempts alone', async () => {
    const { examId, anid } = await seedDemo(t.db.handle.db, s3, PHONE, t.now()).then((x) => x!);
    const otherAnid = await t.invite(examId, '13700137000');
    const attemptOf = async (phone: string, inv: number) => {
      const tok = await t.loginCandidate(phone);
      const res = await enterExam(t, tok, examId, inv);
      expect(res.statusCode, res.body).toBe(200);
      return { tok, prefix: `exams/${examId}/attempts/${body<{ attempt: { id: number } }>(res).data.attempt.id}/` };
    };
    const a = await attemptOf(PHONE, anid);
    const b = await attemptOf('13700137000', otherAnid);
    const capture = async (who: { tok: string; prefix: string }, n: number) => {
      const key = `${who.prefix}frame/${n}.jpg`;
      const bytes = signedFor(key, `frame ${n}`);
      await s3.put(key, bytes);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/monitor/capture?auth=${who.tok}`,
        payload: { exam_id: examId, kind: 'frame', key, sha256: sha(bytes), trigger_time: t.now(), client_id: cid() },
      });
      return { res, key };
    };
    for (const n of [1, 2]) expect((await capture(a, n)).res.statusCode).toBe(200);
    const over = await capture(a, 3);
    expect([over.res.statusCode, body(over.res).code]).toEqual([409, 'storage_quota_exceeded']);
    expect(await s3.head(over.key)).toBeNull();
    expect(await s3.head(`${a.prefix}frame/1.jpg`)).not.toBeNull();
    expect((await capture(b, 1)).res.statusCode).toBe(200);
  });
});
