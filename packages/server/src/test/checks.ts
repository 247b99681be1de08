/** Device checks through the real calls, for tests that need a candidate inside the exam. */
import { randomUUID } from 'node:crypto';
import { requiredSteps, stepSkippable, type ExamDetail, type MonitorStepKey } from '@examhall/contract';
import { facePhoto, flatPhoto } from '../bench/facePhotos.js';
import { attemptPrefix } from '../services/chain.js';
import { body, type TestApp } from './app.js';

/** How the helper treats the steps an exam allows skipping. */
export interface CheckOptions {
  /** Steps to skip where the exam allows it (default: camera and phone, which need a face or a phone to pass). */
  skip?: readonly MonitorStepKey[];
  /** The camera's first picture (default: person a's face). */
  picture?: Buffer;
}

/** Calls the API as a candidate and answers the envelope's data, failing on an error. */
async function call<T>(t: TestApp, token: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const sep = url.includes('?') ? '&' : '?';
  const res = await t.app.inject({ method, url: `/api${url}${sep}auth=${token}`, ...(payload ? { payload } : {}) });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return body<T>(res).data;
}

/** Records one step's outcome. */
export function recordCheck(
  t: TestApp,
  token: string,
  examId: number,
  step: -5 | -4 | -3 | -2 | -1,
  result: 'passed' | 'skipped',
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/monitor/check?auth=${token}`,
    payload: { exam_id: examId, step, result, device: 'test device', client_id: randomUUID() },
  });
}

/** Puts a picture under the attempt's prefix as the browser would, and answers its key and SHA-256. */
export async function putPicture(
  t: TestApp,
  attempt: { id: number; exam_id: number },
  name: string,
  bytes: Buffer,
): Promise<{ key: string; sha256: string }> {
  const key = `${attemptPrefix(attempt)}${name}`;
  const { sha256 } = await t.services.store.put(key, bytes);
  return { key, sha256 };
}

/** Takes the first picture (a face photo unless `bytes` says otherwise) and records it. */
export async function firstPicture(
  t: TestApp,
  token: string,
  attempt: { id: number; exam_id: number },
  bytes: Buffer = facePhoto('a'),
): Promise<void> {
  const { key, sha256 } = await putPicture(t, attempt, `first-${randomUUID()}.jpg`, bytes);
  await call(t, token, 'POST', '/monitor/first-picture', { exam_id: attempt.exam_id, key, sha256 });
}

/** Signs the pledge: a picture stored and recorded as the signature capture, then the step recorded as passed. */
export async function sign(t: TestApp, token: string, attempt: { id: number; exam_id: number }): Promise<void> {
  const { key, sha256 } = await putPicture(t, attempt, `signature-${randomUUID()}.png`, flatPhoto(64, 32));
  await call(t, token, 'POST', '/monitor/capture', {
    exam_id: attempt.exam_id,
    kind: 'signature',
    key,
    sha256,
    trigger_time: t.now(),
    client_id: randomUUID(),
  });
}

/**
 * Passes every check the exam keeps, as a candidate would: a step the exam lets be skipped and `skip` names is
 * skipped; the camera passes on a face photo, the phone once its page has reported, the pledge once signed.
 */
export async function passChecks(
  t: TestApp,
  token: string,
  examId: number,
  anid: number,
  opts: CheckOptions = {},
): Promise<void> {
  const skip = new Set(opts.skip ?? ['camera', 'mobileDevice']);
  const detail = await call<ExamDetail>(t, token, 'GET', `/exam/show?id=${examId}&anid=${anid}`);
  const { attempt } = await call<{ attempt: { id: number; exam_id: number } }>(
    t,
    token,
    'POST',
    '/monitor/start-exam',
    {
      exam_id: examId,
      anid,
    },
  );
  for (const step of requiredSteps(detail)) {
    if (skip.has(step.key) && stepSkippable(detail, step.key)) {
      await expectOk(recordCheck(t, token, examId, step.id, 'skipped'));
      continue;
    }
    if (step.key === 'camera') await firstPicture(t, token, attempt, opts.picture);
    if (step.key === 'mobileDevice') {
      const link = await call<{ url: string }>(t, token, 'GET', `/exam/wx-url-link?exam_id=${examId}&anid=${anid}`);
      const phoneToken = new URL(link.url).searchParams.get('auth');
      const res = await t.app.inject({ method: 'GET', url: `/api/phone/session?auth=${phoneToken}` });
      if (res.statusCode !== 200) throw new Error(`phone session: ${res.body}`);
    }
    if (step.key === 'signature') await sign(t, token, attempt);
    await expectOk(recordCheck(t, token, examId, step.id, 'passed'));
  }
}

/**
 * Creates or resumes the attempt, passes its checks (see {@link passChecks}) and enters the exam; answers the
 * start call's response.
 */
export async function enterExam(t: TestApp, token: string, examId: number, anid: number, opts: CheckOptions = {}) {
  await passChecks(t, token, examId, anid, opts);
  return t.app.inject({
    method: 'POST',
    url: `/api/monitor/start-exam?auth=${token}`,
    payload: { exam_id: examId, anid, phase: 2 },
  });
}

async function expectOk(res: Promise<{ statusCode: number; body: string }>): Promise<void> {
  const r = await res;
  if (r.statusCode !== 200) throw new Error(`check: ${r.statusCode} ${r.body}`);
}
