/** The staff console in a journey: logging in, and the antd controls its pages are made of. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A staff account's phone and password. */
export interface StaffAccount {
  phone: string;
  password: string;
}

/** Logs the page in as `account` through the console's login form and lands on `to` (a console path). */
export async function staffLogin(page: Page, account: StaffAccount, to = '/admin'): Promise<void> {
  await page.goto(`/admin/login?redirect=${encodeURIComponent(to)}`);
  await page.getByTestId('staff-phone').fill(account.phone);
  await page.getByTestId('staff-password').fill(account.password);
  await page.getByTestId('staff-login-submit').click();
  await page.getByTestId('admin-console').waitFor();
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(to);
}

/** The text input of a field: the element itself when it is one, else the input inside it (antd wrappers). */
export function inputOf(field: Locator): Locator {
  return field.locator('xpath=self::input | self::textarea | .//input').first();
}

/** Opens an antd Select and clicks the option showing `text` (a short list: every option is rendered). */
export async function chooseOption(page: Page, select: Locator, text: string | RegExp): Promise<void> {
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await expect.poll(() => select.textContent()).toMatch(text);
}

/**
 * Picks the option at `index` of an antd Select that shows only part of a long list (a virtual list renders
 * the options in view): it opens on the current value, which must be the first option, and moves down.
 */
export async function chooseByIndex(page: Page, select: Locator, index: number): Promise<void> {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').waitFor();
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/**
 * Adds values to an antd Select in tags mode, each typed and confirmed with Enter, then closes its list with
 * Escape (Tab would toggle the active option: the value just added would be taken out again).
 */
export async function addTags(page: Page, select: Locator, values: readonly string[]): Promise<void> {
  await select.click();
  for (const value of values) {
    await page.keyboard.type(value);
    await page.keyboard.press('Enter');
    await select.locator('.ant-select-selection-item', { hasText: value }).first().waitFor();
  }
  await page.keyboard.press('Escape');
  await expect.poll(() => select.locator('.ant-select-selection-item').allTextContents()).toEqual(values);
}

/**
 * Calls the API as the staff member signed in on `page` and expects success. The staff cookie signs the call, so it
 * carries the site's origin, as a browser's write does (the server refuses a cookie-signed write without it).
 */
export async function staffCall<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(`/api${path}`, {
    headers: { origin: new URL(page.url()).origin },
    data: data as Record<string, unknown>,
  });
  return successData<T>(path, res);
}

/** The data of a call's answer, expecting the success envelope (the failure's status and message otherwise). */
async function successData<T>(path: string, res: { status(): number; json(): Promise<unknown> }): Promise<T> {
  const body = (await res.json()) as { status: string; msg: string; data: T };
  expect(body.status, `${path}: ${res.status()} ${body.msg}`).toBe('success');
  return body.data;
}

/**
 * Publishes an exam of one single-choice question (key A) as the staff member on `page`: `minutes` long, open from
 * `opensAt` for a day, no device checks but the pledge.
 */
export async function publishOneQuestionExam(
  page: Page,
  exam: { name: string; opensAt: number; minutes: number },
): Promise<number> {
  const question = await staffCall<{ id: number }>(page, '/admin/bank/questions', {
    question: {
      kind: 'single',
      content: {
        stem: '<p>校招笔试：2 + 3 = ?</p>',
        options: [
          { id: 'A', content: '5' },
          { id: 'B', content: '6' },
        ],
      },
      key: { option: 'A' },
    },
    default_score: 10,
  });
  const { exam_id: examId } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', { name: exam.name });
  const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
    exam_id: examId,
    revision: 0,
    draft: {
      name: exam.name,
      mode: 1,
      time_minutes: exam.minutes,
      start_at: exam.opensAt,
      end_at: exam.opensAt + 24 * 3_600_000,
      settings: { is_close_camera: 1, is_close_microphone: 1, is_close_screen: 1, is_close_phone: 1 },
      pledge: '我承诺独立完成本次考试。',
      sections: [{ kind: 'linetest', title: '', items: [{ question_id: question.id, points: 10 }] }],
    },
  });
  await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
  return examId;
}

/** How long `clickForCall` waits for the call's answer. */
const CALL_WAIT_MS = 15_000;

/**
 * Clicks `button`, waits for the call to `path` the click makes, and expects it to succeed, so a step that fails
 * says what the server answered (or that no call was made) rather than only that the page did not move on.
 */
export async function clickForCall<T>(page: Page, button: Locator, path: string): Promise<T> {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api${path}`,
    { timeout: CALL_WAIT_MS },
  );
  await button.click();
  const res = await answered.catch((e: unknown) => {
    throw new Error(`no answer to ${path} within ${CALL_WAIT_MS} ms of the click`, { cause: e });
  });
  return successData<T>(path, res);
}
