import { createHash } from 'node:crypto';
import { describeDetail, detail, RISK_EVENTS, type FaceRecognizeData, type StsData } from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACE_IMG_MAX_BYTES, FACE_MATCH_THRESHOLD } from '../services/faceCheck.js';
import { body } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { phonePhoto } from '../bench/facePhotos.js';
import { candidateApp, startWithoutChecks } from '../test/examScenario.js';
import { faceCheck, facePictures, recognizeFace } from '../test/faces.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(await testedDialects())('/tools/face_recognize on %s', (dialect) => {
  // One app per dialect: each app's pool loads the models once.
  const s = candidateApp(dialect, { phone: PHONE, app: { env: { FACE_WORKERS: '1' } } });
  let attemptId: number;
  const pictures = { ...facePictures(), phone: phonePhoto() };

  beforeAll(async () => {
    attemptId = await startWithoutChecks(s.t, s.token, s.examId, s.anid);
  });

  const get = (url: string, tok = s.token) => s.t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${tok}`);
  const post = (url: string, payload: object, tok = s.token) =>
    s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${tok}`, payload });
  const recognize = (picture: Buffer, opts: { tok?: string; exam?: number | string; field?: string } = {}) =>
    recognizeFace(s.t, opts.tok ?? s.token, picture, {
      exam: opts.exam ?? s.examId,
      ...(opts.field !== undefined ? { field: opts.field } : {}),
    });
  const check = (picture: Buffer) => faceCheck(s.t, s.token, s.examId, picture);
  const records = () =>
    s.t.db.handle.db.selectFrom('risk_records').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();

  it('passes one face before the first picture exists, with no similarity to report', async () => {
    expect(await check(pictures.a)).toEqual({
      face_count: 1,
      similarity: null,
      id_similarity: null,
      phone_detected: false,
      passed: true,
      risk_id: null,
    });
  });

  it('compares with the first picture: the same face scores high, another person is a mismatch with evidence', async () => {
    const prefix = body<StsData>(await get(`/sts/get-token?exam_id=${s.examId}`)).data.prefix;
    const key = `${prefix}first/1.jpg`;
    await s.t.store.put(key, pictures.a);
    const first = await post('/monitor/first-picture', { exam_id: s.examId, key, sha256: sha(pictures.a) });
    expect(first.statusCode, first.body).toBe(200);

    const same = await check(pictures.a);
    expect(same).toMatchObject({ face_count: 1, passed: true, risk_id: null });
    expect(same.similarity).toBeGreaterThan(0.99);
    const sameOtherCrop = await check(pictures.sameA);
    expect(sameOtherCrop.passed).toBe(true);
    expect(sameOtherCrop.similarity).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);

    const before = (await records()).length;
    const other = await check(pictures.b);
    expect(other).toMatchObject({ face_count: 1, passed: false, phone_detected: false });
    expect(other.similarity).toBeLessThan(FACE_MATCH_THRESHOLD);
    const added = (await records()).slice(before);
    const risk = added.find((r) => r.id === other.risk_id)!;
    expect(risk).toMatchObject({ risk: RISK_EVENTS.firstCameraAbnormal.id, category: 2 });
    expect(risk.detail).toBe(detail.faceMismatch(other.similarity!, null));
    const evidence = added.find((r) => r.kind === 'face')!;
    expect(evidence.image_key).toBe(risk.image_key);
    expect(evidence.sha256).toBe(sha(pictures.b));
  });

  it('records no face as camera abnormal (11) with the picture stored as evidence', async () => {
    const res = await check(pictures.flat);
    expect(res).toMatchObject({ face_count: 0, similarity: null, passed: false, phone_detected: false });
    const rows = await records();
    const risk = rows.find((r) => r.id === res.risk_id)!;
    expect(risk).toMatchObject({ risk: 11, category: 2, detail: detail.noFace() });
    expect(risk.image_key).toMatch(new RegExp(`^exams/${s.examId}/attempts/${attemptId}/face/`));
    const stored = await s.t.store.get(risk.image_key!);
    expect(stored && stored.equals(pictures.flat)).toBe(true);
    const evidence = rows.find((r) => r.kind === 'face' && r.image_key === risk.image_key)!;
    expect(evidence).toMatchObject({ sha256: sha(pictures.flat), size: pictures.flat.length });
    // the chain still verifies with the server's records in it
    const verified = await s.t.services.verification.verify(attemptId);
    expect(verified.problems).toEqual([]);
  });

  it('counts two faces and records them', async () => {
    const res = await check(pictures.two);
    expect(res).toMatchObject({ face_count: 2, similarity: null, passed: false });
    const risk = (await records()).find((r) => r.id === res.risk_id)!;
    expect(risk).toMatchObject({ risk: 11, detail: detail.faces(2) });
  });

  it('records phone use (7) when a phone is in the picture', async () => {
    const res = await check(pictures.phone);
    expect(res.phone_detected).toBe(true);
    expect(res.passed).toBe(false);
    const rows = await records();
    const first = rows.find((r) => r.id === res.risk_id)!;
    // the crop shows no face either: camera abnormal first, phone use on the same picture after it
    expect(first).toMatchObject({ risk: 11, detail: detail.noFace() });
    const phone = rows.find((r) => r.risk === RISK_EVENTS.phoneUse.id && r.image_key === first.image_key)!;
    expect(describeDetail(phone.detail)).toMatchObject({ key: 'phoneSeen', params: { score: expect.any(Number) } });
    expect(phone.category).toBe(2);
  });

  it('answers image_unreadable for garbage and cut-off pictures, records nothing', async () => {
    const before = (await records()).length;
    for (const bad of [Buffer.from('definitely not a picture'), pictures.a.subarray(0, 400), Buffer.alloc(0)]) {
      const res = await recognize(bad);
      expect(res.statusCode, res.body).toBe(422);
      expect(body(res).code).toBe('image_unreadable');
    }
    expect(await records()).toHaveLength(before);
  });

  it('refuses a missing field, a bad exam id, and a picture over the size limit', async () => {
    expect(body(await recognize(pictures.a, { field: 'file' })).code).toBe('validation_error');
    expect(body(await recognize(pictures.a, { exam: 'x' })).code).toBe('validation_error');
    const noForm = await post('/tools/face_recognize', { exam_id: s.examId });
    expect(body(noForm).code).toBe('unsupported_media_type');
    const broken = await s.t.app.inject({
      method: 'POST',
      url: `/api/tools/face_recognize?auth=${s.token}`,
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'exam_id=1',
    });
    expect(broken.statusCode, broken.body).toBe(422);
    const huge = Buffer.concat([pictures.a, Buffer.alloc(FACE_IMG_MAX_BYTES)]);
    const res = await recognize(huge);
    expect(res.statusCode).toBe(413);
    expect(body(res).code).toBe('payload_too_large');
  });

  it("keeps candidates to their own attempt: another candidate cannot check against this one's", async () => {
    expect((await s.t.app.inject({ method: 'POST', url: '/api/tools/face_recognize' })).statusCode).toBe(401);
    const stranger = await s.t.loginCandidate(OTHER);
    const before = (await records()).length;
    const res = await recognize(pictures.flat, { tok: stranger });
    expect(body(res).code).toBe('exam_detail_missing');
    expect(await records()).toHaveLength(before);

    // invited to the same exam, the other candidate is compared with their own (absent) first picture only
    await s.t.invite(s.examId, OTHER);
    expect(body(await recognize(pictures.a, { tok: stranger })).code).toBe('exam_not_started');
    const otherAnid = body<{ list: { anid: number }[] }>(await get('/exam/index', stranger)).data.list[0]!.anid;
    const started = await post('/monitor/start-exam', { exam_id: s.examId, anid: otherAnid }, stranger);
    expect(started.statusCode, started.body).toBe(200);
    const theirs = body<FaceRecognizeData>(await recognize(pictures.b, { tok: stranger })).data;
    expect(theirs).toMatchObject({ face_count: 1, similarity: null, passed: true, risk_id: null });
    expect(await records()).toHaveLength(before);
  });
});
