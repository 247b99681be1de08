import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { HTML_PAGE, signed } from '../test/media.js';
import { multipart } from '../test/multipart.js';
import { FileRepository } from '../repositories/files.js';
import { enterExam } from '../test/checks.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2048, 0x20), Buffer.from('\n%%EOF\n')]);

describe.each(await testedDialects())('profile, resume and files on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    token = await t.loginCandidate('13800138000');
  });
  afterEach(async () => t.close());

  const upload = (url: string, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) =>
    t.app.inject({ method: 'POST', url: `/api${url}?auth=${token}`, ...multipart(fields, file) });

  it('saves the profile, which completes the user info', async () => {
    expect(body<{ info: number }>(await t.app.inject(`/api/user/get-info?auth=${token}`)).data.info).toBe(0);
    const profile = {
      name: '张三',
      school: '浙江大学 Zhejiang University',
      major: '软件工程 Software Engineering',
      degree: 'bachelor',
      graduation_year: 2027,
    };
    const saved = await t.app.inject({ method: 'POST', url: `/api/user/my-info?auth=${token}`, payload: profile });
    expect(saved.statusCode).toBe(200);
    expect(body(saved).data).toMatchObject({ ...profile, resume: null });
    const info = body<{ info: number; userInfo: { name: string } }>(
      await t.app.inject(`/api/user/get-info?auth=${token}`),
    ).data;
    expect(info).toMatchObject({ info: 1, userInfo: { name: '张三' } });
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/user/my-info?auth=${token}`,
      payload: { ...profile, degree: 'kindergarten' },
    });
    expect(bad.statusCode).toBe(422);
    expect(body(bad).msg).toMatch(/^degree: /);
  });

  it('stores a PDF resume in object storage with its hash, and refuses other content', async () => {
    const ok = await upload('/resume/index', {}, { name: 'resume.pdf', type: 'application/pdf', data: PDF });
    expect(ok.statusCode).toBe(200);
    const resume = body<{ resume: { sha256: string; size: number; file_name: string } }>(ok).data.resume;
    expect(resume).toMatchObject({ file_name: 'resume.pdf', size: PDF.length });
    const stored = await t.store.get(
      `resumes/${body<{ id: number }>(await t.app.inject(`/api/user/get-info?auth=${token}`)).data.id}/${resume.sha256}.pdf`,
    );
    expect(stored?.equals(PDF)).toBe(true);
    expect(body(await t.app.inject(`/api/resume/index?auth=${token}`)).data).toEqual({
      resume: expect.objectContaining({ sha256: resume.sha256 }),
    });

    const fake = await upload(
      '/resume/index',
      {},
      { name: 'x.pdf', type: 'application/pdf', data: Buffer.from('MZ not a pdf') },
    );
    expect(fake.statusCode).toBe(415);
    const exe = await upload(
      '/resume/index',
      {},
      { name: 'x.exe', type: 'application/x-msdownload', data: Buffer.from('MZ') },
    );
    expect(body(exe).code).toBe('unsupported_media_type');
    const none = await upload('/resume/index', { note: 'no file' });
    expect(none.statusCode).toBe(422);
    const json = await t.app.inject({ method: 'POST', url: `/api/resume/index?auth=${token}`, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    for (const [type, payload] of [
      ['multipart/form-data', ''],
      ['multipart/form-data; boundary=x', ''],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-',
      ],
    ] as const) {
      const broken = await t.app.inject({
        method: 'POST',
        url: `/api/resume/index?auth=${token}`,
        payload,
        headers: { 'content-type': type },
      });
      expect(broken.statusCode, `${type} ${payload}`).toBeLessThan(500);
      expect(body(broken).code).toMatch(/validation_error|payload_too_large/);
    }
  });

  it('offers colleges by keyword and majors by discipline', async () => {
    const c = body<{ list: { name: string }[] }>(await t.app.inject('/api/common/const?type=college&keyword=zhejiang'))
      .data.list;
    expect(c.map((x) => x.name)).toEqual(['浙江大学 Zhejiang University']);
    expect((await t.app.inject('/api/common/const?type=city')).statusCode).toBe(422);
    const m = body<{ list: { category: string; majors: string[] }[] }>(await t.app.inject('/api/const/mixed-major'))
      .data.list;
    expect(m.length).toBeGreaterThan(3);
    expect(m.flatMap((x) => x.majors)).toContain('软件工程 Software Engineering');
  });

  it('attaches files to a Q&A answer only when the exam allows it', async () => {
    const { examId, anid } = await t.seed('13800138000');
    await enterExam(t, token, examId, anid);
    const list = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order;
    const qa = list.find((q) => q.type === 5)!;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const up = await upload(
      '/answer/upload',
      { exam_id: String(examId), subject_id: String(qa.id) },
      { name: 'sketch.png', type: 'image/png', data: png },
    );
    expect(up.statusCode).toBe(200);
    const { key } = body<{ key: string }>(up).data;
    expect((await t.store.get(key))?.equals(png)).toBe(true);
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/answer/answer?auth=${token}`,
      payload: {
        exam_id: examId,
        subject_id: qa.id,
        answer: { kind: 'text', html: '<p>see file</p>', files: [key] },
        client_id: 'qa-file-1',
        seq: 1,
        changed_at: t.now(),
      },
    });
    expect(saved.statusCode).toBe(200);
    const single = list.find((q) => q.type === 1)!;
    expect(
      (
        await upload(
          '/answer/upload',
          { exam_id: String(examId), subject_id: String(single.id) },
          { name: 'a.png', type: 'image/png', data: png },
        )
      ).statusCode,
    ).toBe(404);
    await t.db.handle.db
      .updateTable('exams')
      .set({
        settings: (eb) => eb.fn('replace', ['settings', eb.val('"is_upload_file":1'), eb.val('"is_upload_file":0')]),
      })
      .execute();
    t.advance(11_000);
    const refused = await upload(
      '/answer/upload',
      { exam_id: String(examId), subject_id: String(qa.id) },
      { name: 'a.png', type: 'image/png', data: png },
    );
    expect(body(refused).code).toBe('forbidden');
  });
  it('takes in a Q&A answer only files this attempt uploaded for this question', async () => {
    const { examId, anid } = await t.seed('13800138000');
    const otherAnid = await t.invite(examId, '13700137000');
    const other = await t.loginCandidate('13700137000');
    const startAs = async (tok: string, inv: number) => {
      const res = await enterExam(t, tok, examId, inv);
      expect(res.statusCode, res.body).toBe(200);
      return body<{ attempt: { id: number } }>(res).data.attempt.id;
    };
    const attemptId = await startAs(token, anid);
    const otherAttempt = await startAs(other, otherAnid);
    const list = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order;
    const qa = list.find((q) => q.type === 5)!;
    const single = list.find((q) => q.type === 1)!;
    const png = signed('png', 'a sketch');
    const uploadAs = async (tok: string, data: Buffer) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/answer/upload?auth=${tok}`,
        ...multipart(
          { exam_id: String(examId), subject_id: String(qa.id) },
          { name: 'a.png', type: 'image/png', data },
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      return body<{ key: string }>(res).data.key;
    };
    const mine = await uploadAs(token, png);
    const theirs = await uploadAs(other, signed('png', 'their sketch'));
    // A file this attempt stored for another question (the upload call only takes Q&A questions, so it is recorded
    // here the way the upload records it).
    const elsewhere = `answers/${attemptId}/${single.id}/${'c'.repeat(64)}.png`;
    await t.store.put(elsewhere, png);
    await new FileRepository(t.db.handle.db).record({
      key: elsewhere,
      owner_kind: 'attempt',
      owner_id: attemptId,
      file_name: 'a.png',
      mime: 'image/png',
      size: png.length,
      sha256: 'c'.repeat(64),
      created_at: t.now(),
    });
    let seq = 0;
    const save = (files: string[]) =>
      t.app.inject({
        method: 'POST',
        url: `/api/answer/answer?auth=${token}`,
        payload: {
          exam_id: examId,
          subject_id: qa.id,
          answer: { kind: 'text', html: '<p>see file</p>', files },
          client_id: `qa-files-${++seq}`,
          seq,
          changed_at: t.now(),
        },
      });
    for (const key of [
      `answers/${attemptId}/${qa.id}/../../${otherAttempt}/${qa.id}/${theirs.split('/').pop()!}`,
      `answers/${attemptId}/${qa.id}/${'d'.repeat(64)}.png`,
      theirs,
      elsewhere,
    ]) {
      const res = await save([mine, key]);
      expect([res.statusCode, body(res).code], key).toEqual([422, 'validation_error']);
      expect(body(res).msg).toMatch(/^answer\.files: /);
    }
    const ok = await save([mine]);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('checks answer files and resumes by their bytes, never by the declared type alone', async () => {
    const { examId, anid } = await t.seed('13800138000');
    await enterExam(t, token, examId, anid);
    const qa = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order.find((q) => q.type === 5)!;
    const answerFile = (type: string, data: Buffer) =>
      upload('/answer/upload', { exam_id: String(examId), subject_id: String(qa.id) }, { name: 'f', type, data });
    for (const type of ['image/png', 'text/plain', 'application/pdf', 'application/zip']) {
      const res = await answerFile(type, HTML_PAGE);
      expect([res.statusCode, body(res).code], type).toEqual([415, 'unsupported_media_type']);
    }
    const binaryText = await answerFile('text/plain', Buffer.from([0x41, 0x00, 0x42]));
    expect(body(binaryText).code).toBe('unsupported_media_type');
    expect(
      (await answerFile('text/plain', Buffer.from('解：设 x = 2\n<b>not markup at the start</b>'))).statusCode,
    ).toBe(200);
    expect((await answerFile('application/pdf', PDF)).statusCode).toBe(200);
    const resume = await upload('/resume/index', {}, { name: 'cv.pdf', type: 'application/pdf', data: HTML_PAGE });
    expect([resume.statusCode, body(resume).code]).toEqual([415, 'unsupported_media_type']);
  });
});
