import { createHash } from 'node:crypto';
import { detail, RISK_EVENTS, type IdPhotoData, type ProctorAttemptData } from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACE_IMG_MAX_BYTES, FACE_MATCH_THRESHOLD } from '../services/faceCheck.js';
import { body } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { candidateSts, stsClient } from '../test/sts.js';
import { candidateApp, invitationOf, startWithoutChecks } from '../test/examScenario.js';
import { faceCheck, facePictures } from '../test/faces.js';
import { HTML_PAGE } from '../test/media.js';
import { multipart } from '../test/multipart.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(await testedDialects())('ID photos and the face check on %s', (dialect) => {
  // One app per dialect: each app's face pool loads the models once.
  const s = candidateApp(dialect, { phone: PHONE, realClock: true, app: { env: { FACE_WORKERS: '1' } } });
  let base: string;
  let attemptId: number;
  let otherAttemptId: number;
  const tokens = { other: '' };
  const staff = { admin: '', grader: '' };
  const pictures = facePictures();

  beforeAll(async () => {
    await s.t.invite(s.examId, OTHER);
    tokens.other = await s.t.loginCandidate(OTHER);
    staff.admin = await s.t.loginStaff('admin');
    staff.grader = await s.t.loginStaff('grader');
    attemptId = await start(s.token, s.anid);
    otherAttemptId = await start(tokens.other, await anidOf(OTHER));
    base = await s.t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const start = (tok: string, invitation: number) => startWithoutChecks(s.t, tok, s.examId, invitation);
  const anidOf = (phone: string) => invitationOf(s.t, s.examId, phone);
  const invitationRow = (id: number) =>
    s.t.db.handle.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** POST /admin/proctor/id-photo as a browser sends it; `auth` is a staff token unless `candidate` is given. */
  const setIdPhoto = (
    picture: Buffer,
    fields: Record<string, string>,
    opts: { staffToken?: string; candidate?: string; type?: string } = {},
  ) => {
    const form = multipart(
      { exam_id: String(s.examId), ...fields },
      { name: 'id.jpg', type: opts.type ?? 'image/jpeg', data: picture, field: 'id_photo' },
    );
    return s.t.app.inject({
      method: 'POST',
      url: `/api/admin/proctor/id-photo${opts.candidate ? `?auth=${opts.candidate}` : ''}`,
      ...form,
      headers: {
        ...form.headers,
        ...(opts.candidate ? {} : { authorization: `Bearer ${opts.staffToken ?? staff.admin}` }),
      },
    });
  };
  const check = (picture: Buffer, tok = s.token) => faceCheck(s.t, tok, s.examId, picture);
  const records = (attempt = attemptId) =>
    s.t.db.handle.db.selectFrom('risk_records').selectAll().where('attempt_id', '=', attempt).orderBy('id').execute();

  it('refuses an ID photo without exactly one face, with id_photo_no_single_face, and stores nothing', async () => {
    for (const picture of [pictures.flat, pictures.two]) {
      const res = await setIdPhoto(picture, { phone: PHONE });
      expect(res.statusCode, res.body).toBe(422);
      expect(body(res).code).toBe('id_photo_no_single_face');
    }
    const garbage = await setIdPhoto(Buffer.from('not a picture at all'), { phone: PHONE });
    expect([garbage.statusCode, body(garbage).code]).toEqual([422, 'image_unreadable']);
    const html = await setIdPhoto(HTML_PAGE, { phone: PHONE }, { type: 'image/png' });
    expect([html.statusCode, body(html).code]).toEqual([422, 'image_unreadable']);
    const huge = await setIdPhoto(Buffer.concat([pictures.a, Buffer.alloc(FACE_IMG_MAX_BYTES)]), { phone: PHONE });
    expect([huge.statusCode, body(huge).code]).toEqual([413, 'payload_too_large']);
    expect(await invitationRow(s.anid)).toMatchObject({ id_photo_key: null, id_photo_sha256: null });
    expect(await s.t.store.get(`id-photos/${s.examId}/${s.anid}.jpg`)).toBeNull();
    // with no ID photo, the check has nothing to compare with
    expect((await check(pictures.a)).id_similarity).toBeNull();
  });

  it('compares camera pictures with the ID photo: the same person passes, another is an id mismatch (11) with the picture as evidence', async () => {
    const res = await setIdPhoto(pictures.a, { phone: PHONE, area_code: '86' });
    expect(res.statusCode, res.body).toBe(200);
    const stored = body<IdPhotoData>(res).data;
    expect(stored).toMatchObject({ invitation_id: s.anid, sha256: sha(pictures.a) });
    const key = `id-photos/${s.examId}/${s.anid}.jpg`;
    expect(await invitationRow(s.anid)).toMatchObject({ id_photo_key: key, id_photo_sha256: sha(pictures.a) });
    expect((await s.t.store.get(key))?.equals(pictures.a)).toBe(true);

    // The attempt has no first picture: only the ID photo is compared.
    const same = await check(pictures.sameA);
    expect(same).toMatchObject({ face_count: 1, similarity: null, passed: true, risk_id: null });
    expect(same.id_similarity).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);

    const before = (await records()).length;
    const other = await check(pictures.b);
    expect(other).toMatchObject({ face_count: 1, similarity: null, passed: false, phone_detected: false });
    expect(other.id_similarity).toBeLessThan(FACE_MATCH_THRESHOLD);
    const added = (await records()).slice(before);
    const risk = added.find((r) => r.id === other.risk_id)!;
    expect(risk).toMatchObject({ kind: 'risk', risk: RISK_EVENTS.firstCameraAbnormal.id, category: 2 });
    expect(risk.detail).toBe(detail.faceMismatch(null, other.id_similarity!));
    const evidence = added.find((r) => r.kind === 'face')!;
    expect(evidence.image_key).toBe(risk.image_key);
    expect(evidence.sha256).toBe(sha(pictures.b));
    expect((await s.t.services.verification.verify(attemptId)).problems).toEqual([]);

    // The proctor sees the ID photo beside the attempt's pictures.
    const view = await s.t.app.inject({
      url: `/api/admin/proctor/attempt?attempt_id=${attemptId}`,
      headers: { authorization: `Bearer ${staff.admin}` },
    });
    const url = new URL(body<ProctorAttemptData>(view).data.id_photo_url!);
    const served = await s.t.app.inject({ url: `${url.pathname}${url.search}`, headers: { host: url.host } });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pictures.a)).toBe(true);

    // Replaced through the attempt, the new photo counts at once: the cached face follows the digest.
    const replaced = await setIdPhoto(pictures.b, { attempt_id: String(attemptId) });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(body<IdPhotoData>(replaced).data.sha256).toBe(sha(pictures.b));
    const nowB = await check(pictures.b);
    expect(nowB.passed).toBe(true);
    expect(nowB.id_similarity).toBeGreaterThan(0.99);
    const nowA = await check(pictures.a);
    expect(nowA.passed).toBe(false);
    expect(nowA.id_similarity).toBeLessThan(FACE_MATCH_THRESHOLD);
    const audit = await s.t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'proctor.id_photo')
      .execute();
    expect(audit.map((a) => a.target)).toEqual([`invitation:${s.anid}`, `invitation:${s.anid}`]);
  });

  it("keeps each candidate to their own invitation's photo: another candidate's checks do not use it", async () => {
    const theirs = await check(pictures.b, tokens.other);
    expect(theirs).toMatchObject({ face_count: 1, similarity: null, id_similarity: null, passed: true });
    expect(await records(otherAttemptId)).toEqual([]);
  });

  it('keeps the call to staff who decide on flags, and refuses unknown targets and ambiguous forms', async () => {
    const cand = await setIdPhoto(pictures.a, { phone: OTHER }, { candidate: s.token });
    expect(cand.statusCode).toBe(401);
    const grader = await setIdPhoto(pictures.a, { phone: OTHER }, { staffToken: staff.grader });
    expect([grader.statusCode, body(grader).code]).toEqual([403, 'forbidden']);
    expect((await invitationRow(await anidOf(OTHER))).id_photo_key).toBeNull();

    const notInvited = await setIdPhoto(pictures.a, { phone: '13500135000' });
    expect([notInvited.statusCode, body(notInvited).code]).toEqual([404, 'not_found']);
    const noAttempt = await setIdPhoto(pictures.a, { attempt_id: '999999' });
    expect([noAttempt.statusCode, body(noAttempt).code]).toEqual([404, 'not_found']);
    const both = await setIdPhoto(pictures.a, { phone: OTHER, attempt_id: String(otherAttemptId) });
    expect([both.statusCode, body(both).code]).toEqual([422, 'validation_error']);
    const neither = await setIdPhoto(pictures.a, {});
    expect([neither.statusCode, body(neither).code]).toEqual([422, 'validation_error']);
    const noExam = await setIdPhoto(pictures.a, { exam_id: '999999', phone: OTHER });
    // The access check answers first, as for any exam out of reach.
    expect([noExam.statusCode, body(noExam).code]).toEqual([404, 'not_found']);
  });

  it("keeps ID photos out of reach of a candidate's storage credentials", async () => {
    const c = await candidateSts(s.t, s.examId, s.token);
    const client = stsClient(c);
    const key = (await invitationRow(s.anid)).id_photo_key!;
    expect(key).toMatch(/^id-photos\//);
    const url = `${base}/storage/${c.bucket}/${key}`;
    // The credentials work on their own prefix...
    const own = await client.fetch(`${base}/storage/${c.bucket}/${c.prefix}frame/x.jpg`, {
      method: 'PUT',
      body: pictures.a,
    });
    expect(own.status).toBe(200);
    // ...but neither read nor overwrite the candidate's own ID photo.
    const read = await client.fetch(url);
    expect(read.status).toBe(403);
    expect(await read.text()).toContain('<Code>AccessDenied</Code>');
    const overwrite = await client.fetch(url, { method: 'PUT', body: pictures.a });
    expect(overwrite.status).toBe(403);
    expect((await s.t.store.get(key))?.equals(pictures.b)).toBe(true);
  });
});
