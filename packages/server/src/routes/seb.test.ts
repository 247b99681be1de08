/**
 * Safe Exam Browser on every candidate call of an exam that requires it: the calls are taken from the catalogue
 * (each candidate call naming an exam, found by `candidateExamRef`), so a new candidate call is covered by itself.
 * The hash SEB sends is computed here as SEB's documentation says, independently of the server: SHA-256 in hex of
 * the absolute URL the browser requested followed by the config key.
 */
import { createHash } from 'node:crypto';
import {
  api,
  candidateExamRef,
  type CallDef,
  type CandidateExamRef,
  type EditorExamDetail,
  type SebSettingsData,
} from '@examhall/contract';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { multipart } from '../test/multipart.js';
import { sampleOf } from '../test/sample.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface Case {
  name: string;
  call: CallDef;
  ref: CandidateExamRef;
}
const cases: Case[] = (Object.entries(api) as [string, CallDef][]).flatMap(([name, call]) => {
  const ref = call.live === false ? null : candidateExamRef(call);
  return ref ? [{ name, call, ref }] : [];
});

/** How a request proves (or fails to prove) SEB's settings. */
type Proof = 'right' | 'wrong' | 'none';

describe.each(await testedDialects())('Safe Exam Browser on %s', (dialect) => {
  const s = adminApp(dialect);
  const phone = '13800138000';
  let token = '';
  /** The exam that requires SEB, and the candidate's invitation to it. */
  const sebExam = { examId: 0, anid: 0 };
  /** An exam that does not, with the candidate invited too. */
  const plainExam = { examId: 0, anid: 0 };
  let configKey = '';

  /** The draft of an exam and its revision. */
  const detail = (examId: number) => s.ok<EditorExamDetail>(api.examEditorDetail, { exam_id: examId });

  async function publishWith(examId: number, change: (d: EditorExamDetail['draft']) => object): Promise<void> {
    const d = await detail(examId);
    const saved = await s.ok<EditorExamDetail>(api.examEditorSaveDraft, {
      exam_id: examId,
      revision: d.revision,
      draft: change(d.draft),
    });
    await s.ok(api.examEditorPublish, { exam_id: examId, revision: saved.revision });
  }

  beforeAll(async () => {
    const { exam_id: copy } = await s.ok<{ exam_id: number }>(api.examEditorCopy, { exam_id: s.examId });
    await publishWith(copy, (d) => d);
    plainExam.examId = copy;
    plainExam.anid = await s.t.invite(copy, phone);
    sebExam.examId = s.examId;
    sebExam.anid = (
      await s.t.db.handle.db
        .selectFrom('invitations')
        .select('id')
        .where('exam_id', '=', s.examId)
        .where('phone', '=', phone)
        .executeTakeFirstOrThrow()
    ).id;
    configKey = (await s.ok<SebSettingsData>(api.examEditorSebSettings, { exam_id: s.examId })).config_key;
    await publishWith(s.examId, (d) => ({ ...d, seb: { required: true } }));
    token = await s.t.loginCandidate(phone);
  }, 60_000);

  /** Sends a valid sample of `c` naming `exam`, with SEB's config key hash as `proof` says (`key`: another key). */
  async function send(c: Case, exam: { examId: number; anid: number }, proof: Proof, key = configKey) {
    const id = c.ref.kind === 'invitation' ? exam.anid : exam.examId;
    const named = (part: 'query' | 'body', sample: Record<string, unknown>) => {
      const out = { ...sample };
      if (c.ref.part === part) out[c.ref.field] = id;
      if (part === 'query' && 'anid' in out && c.ref.kind === 'exam') out.anid = exam.anid;
      return out;
    };
    const params = new URLSearchParams({ auth: token });
    if (c.call.query) {
      const q = named('query', sampleOf(c.name, 'query', c.call.query) as Record<string, unknown>);
      for (const [k, v] of Object.entries(q)) params.set(k, String(v));
    }
    const url = `/api${c.call.path}?${params.toString()}`;
    const headers: Record<string, string> = {};
    if (proof !== 'none') {
      const used = proof === 'right' ? key : 'f'.repeat(64);
      headers['x-safeexambrowser-configkeyhash'] = sha256(`${s.t.config.publicUrl}${url}${used}`);
    }
    // A stream that would open is asked with HEAD: every check runs, no stream is held open.
    const opts: InjectOptions = { method: c.call.stream && proof === 'right' ? 'HEAD' : c.call.method, url, headers };
    if (c.call.stream) headers.accept = 'text/event-stream';
    if (c.call.body) {
      const b = named('body', sampleOf(c.name, 'body', c.call.body) as Record<string, unknown>);
      if (c.call.bodyFormat === 'multipart') {
        const fields = Object.fromEntries(Object.entries(b).map(([k, v]) => [k, String(v)]));
        const file = {
          field: c.call.upload?.field ?? 'file',
          name: 'a.png',
          type: 'image/png',
          data: Buffer.from('x'),
        };
        const form = multipart(fields, file);
        opts.payload = form.payload;
        Object.assign(headers, form.headers);
      } else if (c.call.bodyFormat === 'form') {
        opts.payload = new URLSearchParams(
          Object.entries(b).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        opts.payload = JSON.stringify(b);
        headers['content-type'] = 'application/json';
      }
    }
    const res = await s.t.app.inject(opts);
    const code = res.body ? (body(res) as { code?: string }).code : undefined;
    return { status: res.statusCode, code, raw: res.body };
  }

  it('covers every candidate call that names an exam', () => {
    expect(cases.length).toBeGreaterThan(35);
    const names = cases.map((c) => c.name);
    for (const name of [
      'examShow',
      'anidInfo',
      'startExam',
      'answer',
      'recordRisk',
      'faceRecognize',
      'candidateEvents',
    ]) {
      expect(names).toContain(name);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s of an SEB exam needs the right config key hash', async (_, c) => {
    for (const proof of ['none', 'wrong'] as const) {
      const refused = await send(c, sebExam, proof);
      expect(refused.status, `${proof}: ${refused.raw}`).toBe(409);
      expect(refused.code, `${proof}: ${refused.raw}`).toBe('seb_required');
    }
    const passed = await send(c, sebExam, 'right');
    expect(passed.code, passed.raw).not.toBe('seb_required');
    // Another exam is not held to this one's browser.
    const plain = await send(c, plainExam, 'none');
    expect(plain.code, plain.raw).not.toBe('seb_required');
  });

  it('says which browser and settings file to use, and never gives candidates the key', async () => {
    const show = cases.find((c) => c.name === 'examShow')!;
    const refused = await send(show, sebExam, 'none');
    const envelope = JSON.parse(refused.raw) as { msg: string; data: Record<string, string> };
    expect(envelope.msg).toContain('Safe Exam Browser');
    expect(envelope.data).toEqual({
      browser: 'Safe Exam Browser',
      min_version: '3.0',
      settings_file: `examhall-exam-${sebExam.examId}.seb`,
    });
    const passed = await send(show, sebExam, 'right');
    expect(passed.status, passed.raw).toBe(200);
    expect(passed.raw).not.toContain(configKey);
  });

  it('takes a key of the exam’s own and checks browser exam keys when the exam lists them', async () => {
    const ownKey = sha256('settings of our own');
    const examKey = sha256('a browser exam key');
    await publishWith(s.examId, (d) => ({
      ...d,
      seb: { required: true, config_key: ownKey.toUpperCase(), browser_exam_keys: [examKey] },
    }));
    const show = cases.find((c) => c.name === 'examShow')!;
    expect((await send(show, sebExam, 'right')).code).toBe('seb_required');
    const withOwnKeyOnly = await send(show, sebExam, 'right', ownKey);
    expect(withOwnKeyOnly.code, 'the browser exam key is missing').toBe('seb_required');

    const params = new URLSearchParams({ auth: token, id: String(sebExam.examId), anid: String(sebExam.anid) });
    const url = `/api/exam/show?${params.toString()}`;
    const full = `${s.t.config.publicUrl}${url}`;
    const res = await s.t.app.inject({
      url,
      headers: {
        'x-safeexambrowser-configkeyhash': sha256(full + ownKey),
        'x-safeexambrowser-requesthash': sha256(full + examKey),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await publishWith(s.examId, (d) => ({ ...d, seb: { required: true } }));
  });

  it('offers the settings file whose config key is the one it is checked with', async () => {
    const file = await s.ok<SebSettingsData>(api.examEditorSebSettings, { exam_id: s.examId });
    expect(file.file_name).toBe(`examhall-exam-${s.examId}.seb`);
    expect(file.content).toContain('<key>sendBrowserExamKey</key>');
    expect(file.content).toContain(`<string>${s.t.config.publicUrl.replace(/\/$/, '')}/exams</string>`);
    expect(file.config_key).toBe(configKey);
    expect(file.config_key).toMatch(/^[0-9a-f]{64}$/);
  });
});
