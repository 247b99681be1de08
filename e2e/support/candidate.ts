import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { passChecksOverHttp } from '../../packages/server/src/bench/harness.js';
import { passMonitorChecks, type PhoneStep } from './monitor.js';
import { DEMO_PHONE, type TestServer } from './server.js';

/** Logs the page in as `phone` through the login form and waits for the exam list. */
export async function loginAs(page: Page, server: TestServer, phone = DEMO_PHONE): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('phone-input').fill(phone);
  const before = server.sms.codesSent(phone);
  await page.getByTestId('send-code').click();
  const code = await server.sms.waitForCode(phone, 10_000, before);
  await page.getByTestId('code-input').fill(code);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/exams$/);
}

/** The candidate token the browser holds. */
export async function authOf(context: BrowserContext): Promise<string> {
  const auth = (await context.cookies()).find((c) => c.name === 'auth')?.value;
  if (!auth) throw new Error('the browser holds no auth cookie');
  return auth;
}

/** A minimal real PDF, made here so the journey needs no fixture file. */
export function smallPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

/** Calls the API as the candidate, straight from the test, and answers `data` (throws on an error envelope). */
export async function api<T>(
  server: TestServer,
  auth: string,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string | number> = {},
): Promise<T> {
  const url = new URL(`${server.baseUrl}/api${path}`);
  url.searchParams.set('auth', auth);
  if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  const res = await fetch(url, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    ...(method === 'POST' ? { body: JSON.stringify(params) } : {}),
  });
  const body = (await res.json()) as { status: string; msg: string; data: T; code?: string };
  if (body.status !== 'success') throw new Error(`${method} ${path}: ${res.status} ${body.code ?? ''} ${body.msg}`);
  return body.data;
}

/** Fills the profile form (school and major picked from their lists) and uploads a PDF resume. */
export async function completeProfile(page: Page): Promise<void> {
  await page.getByTestId('profile-form').waitFor();
  await page.getByTestId('profile-name').fill('张三 Zhang San');
  // School and major are picked from their lists with the keyboard.
  const school = page.getByLabel('学校', { exact: true });
  await school.click();
  await school.pressSequentially('大学');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => school.inputValue()).toMatch(/大学/);
  const major = page.getByLabel('专业', { exact: true });
  await major.click();
  await major.pressSequentially('计算机');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => major.inputValue()).toMatch(/计算机/);
  await page.locator('label', { hasText: /^本科$/ }).click();
  await expect.poll(() => page.getByRole('radio', { name: '本科' }).isChecked()).toBe(true);
  await page.getByLabel('毕业年份').fill('2025');
  await page.getByTestId('resume-input').setInputFiles({
    name: 'resume.pdf',
    mimeType: 'application/pdf',
    buffer: smallPdf(),
  });
  await page.getByTestId('resume-current').filter({ hasText: 'resume.pdf' }).waitFor();
  await page.getByTestId('profile-save').click();
}

/** Opens the demo exam from the list, passes the profile (when asked) and starts: the page is at the checks. */
export async function openDemoChecks(page: Page): Promise<void> {
  await page.getByTestId('exam-enter').first().click();
  // An incomplete profile is asked for first; the entry page follows.
  await page.getByTestId('profile-form').or(page.getByTestId('entry-start')).waitFor();
  if (await page.getByTestId('profile-form').isVisible()) {
    await completeProfile(page);
    await page.waitForURL(/\/exam\/\d+\/\d+$/);
  }
  await page.getByTestId('entry-start').click();
  await page.waitForURL(/\/monitor$/);
}

/**
 * Opens the demo exam from the list and passes the profile (when asked) and the monitor page's
 * checks (the phone step skipped unless `phone` opens the link).
 */
export async function enterDemoExam(page: Page, phone: PhoneStep = 'skip'): Promise<void> {
  await openDemoChecks(page);
  await passMonitorChecks(page, phone);
  await page.waitForURL(/\/answer$/);
  await page.getByTestId('question').waitFor();
}

/** The exam id and invitation id in the current exam page's address. */
export function examIdsOf(page: Page): { examId: number; anid: number } {
  const m = /\/exam\/(\d+)\/(\d+)/.exec(page.url());
  if (!m) throw new Error(`not on an exam page: ${page.url()}`);
  return { examId: Number(m[1]), anid: Number(m[2]) };
}

/** Logs in as `phone` through the API (SMS code from the server's webhook) and answers the token. */
export async function candidateToken(server: TestServer, phone: string): Promise<string> {
  const before = server.sms.codesSent(phone);
  const send = await fetch(`${server.baseUrl}/api/user/send-msg?phone=${phone}&area_code=86`);
  if (send.status !== 200) throw new Error(`send-msg answered ${send.status}`);
  const code = await server.sms.waitForCode(phone, 10_000, before);
  const res = await fetch(`${server.baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, area_code: '86', code }),
  });
  const body = (await res.json()) as { status: string; msg: string; data: { auth: string } };
  if (body.status !== 'success') throw new Error(`login failed: ${body.msg}`);
  return body.data.auth;
}

/**
 * Enters the exam over the API as a candidate without a browser: the checks the exam lets be skipped are
 * skipped and the pledge is signed (the server refuses entering otherwise); answers the start call's data.
 */
export async function enterByApi(
  server: TestServer,
  auth: string,
  examId: number,
  anid: number,
): Promise<{ attempt: { id: number; end_time: number } }> {
  await passChecksOverHttp(server.baseUrl, auth, examId, anid);
  return api(server, auth, 'POST', '/monitor/start-exam', { exam_id: examId, anid, phase: 2 });
}

/** The exam's questions in the order the candidate has them, each with its type. */
export async function questionOrder(
  server: TestServer,
  auth: string,
  examId: number,
): Promise<{ id: number; type: number }[]> {
  const order = await api<{ subject_order: { id: number; type: number }[] }>(
    server,
    auth,
    'GET',
    '/subject/order-list',
    {
      exam_id: examId,
    },
  );
  return order.subject_order;
}

/** Saves `answer` to a question as the candidate's first save of it (seq 1, a client id of its own). */
export async function saveAnswer(
  server: TestServer,
  auth: string,
  examId: number,
  subjectId: number,
  answer: unknown,
): Promise<void> {
  await api(server, auth, 'POST', '/answer/answer', {
    exam_id: examId,
    subject_id: subjectId,
    answer,
    client_id: randomUUID(),
    seq: 1,
    changed_at: Date.now(),
  } as never);
}

/**
 * Logs `phone` in over the API and starts its attempt at an exam it is invited to (found in its exam list):
 * answers its token, the attempt and the exam's questions in its order.
 */
export async function startAttempt(
  server: TestServer,
  phone: string,
  examId: number,
): Promise<{ auth: string; attemptId: number; questions: { id: number; type: number }[] }> {
  const auth = await candidateToken(server, phone);
  const listed = await api<{ list: { id: number; anid: number }[] }>(server, auth, 'GET', '/exam/index');
  const anid = listed.list.find((e) => e.id === examId)!.anid;
  const started = await enterByApi(server, auth, examId, anid);
  return { auth, attemptId: started.attempt.id, questions: await questionOrder(server, auth, examId) };
}
