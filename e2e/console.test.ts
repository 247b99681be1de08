/**
 * The console end to end: an admin makes a team and an author; the author writes one question of every kind
 * in the bank's editors (an uploaded listening audio, a programming problem with a zip of hidden cases and a
 * reference solution the judge accepts), builds an exam with a fixed section and a random draw, publishes it,
 * previews it as a candidate with the keys shown, and invites a phone; that candidate takes the exam through
 * the candidate pages and gets every automatically scored point.
 */
import { BANK_LIMITS, bankCalls, formatServerTime, QUESTION_KINDS, type QuestionKind } from '@examhall/contract';
import { strToU8, zipSync } from 'fflate';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beepsWav } from '../packages/server/src/storage/wav.js';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, examIdsOf, loginAs, openDemoChecks } from './support/candidate.js';
import { chooseLanguage, setCode } from './support/code.js';
import {
  addTags,
  chooseByIndex,
  chooseOption,
  clickForCall,
  inputOf,
  staffCall,
  staffLogin,
  type StaffAccount,
} from './support/console.js';
import { faceVideoArgs } from './support/faceVideo.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';
import { ADMIN } from './support/server.js';

const TEAM = 'E2E 招聘组';
const AUTHOR: StaffAccount & { name: string } = { name: 'E2E 出题人', phone: '13600136000', password: 'author-pass-1' };
const CANDIDATE_PHONE = '13500135000';
const DRAW_TAG = 'draw-e2e';
/** Points of each drawn question. */
const DRAW_POINTS = 2;
/** Questions drawn per candidate out of the ten tagged ones. */
const DRAW_COUNT = 5;

/** a + b, the programming problem's reference solution and the candidate's answer. */
const PY_SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** The problem's hidden cases, uploaded as a zip of .in/.out pairs. */
const HIDDEN_CASES: Record<string, [string, string]> = {
  '1': ['3 4\n', '7\n'],
  '2': ['-5 5\n', '0\n'],
  '3': ['1000000000 1000000000\n', '2000000000\n'],
};

/** One question the author writes in the editors: its kind, the points it carries, and whether it scores itself. */
interface Written {
  kind: QuestionKind;
  /** Unique text in its stem: the exam page is matched back to it by this. */
  marker: string;
  points: number;
  /** Scored automatically (by its key or the judge), so it counts in the expected score. */
  auto: boolean;
}

/** The eleven kinds of the fixed section, then the two evaluation items. */
const FIXED: Written[] = [
  { kind: 'single', marker: 'E2E-fixed single', points: 5, auto: true },
  { kind: 'multiple', marker: 'E2E-fixed multiple', points: 6, auto: true },
  { kind: 'indefinite', marker: 'E2E-fixed indefinite', points: 4, auto: true },
  { kind: 'fill_blank', marker: 'E2E-fixed fill blanks', points: 5, auto: true },
  { kind: 'qa', marker: 'E2E-fixed qa', points: 10, auto: false },
  { kind: 'programming', marker: 'E2E-fixed programming', points: 20, auto: true },
  { kind: 'true_false', marker: 'E2E-fixed true false', points: 2, auto: true },
  { kind: 'programming_qa', marker: 'E2E-fixed code qa', points: 10, auto: false },
  { kind: 'reading', marker: 'E2E-fixed reading', points: 10, auto: true },
  { kind: 'listening', marker: 'E2E-fixed listening', points: 8, auto: true },
  { kind: 'gradient', marker: 'E2E-fixed gradient', points: 3, auto: true },
];
const EVALUATION: Written[] = [
  { kind: 'evaluation', marker: 'E2E-eval teamwork', points: 1, auto: false },
  { kind: 'evaluation', marker: 'E2E-eval curiosity', points: 1, auto: false },
];
/** The right option of draw question k (its stem says k). */
const drawKey = (k: number) => 'ABCD'[k % 4]!;

/** Every point the exam scores without a grader: the fixed section's automatic questions and the draw. */
const EXPECTED_SCORE = FIXED.filter((q) => q.auto).reduce((n, q) => n + q.points, 0) + DRAW_COUNT * DRAW_POINTS;
/** The maximum counts the questions graders score too (Q&A and programming Q&A), which wait for a grader. */
const EXPECTED_MAX =
  EXPECTED_SCORE + FIXED.filter((q) => !q.auto && q.kind !== 'evaluation').reduce((n, q) => n + q.points, 0);

/** A zip of the hidden cases as a teacher would upload it. */
function casesZip(): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (const [name, [input, output]] of Object.entries(HIDDEN_CASES)) {
    files[`${name}.in`] = strToU8(input);
    files[`${name}.out`] = strToU8(output);
  }
  return Buffer.from(zipSync(files));
}

// ---------------------------------------------------------------- the author's side

/** Fills the stem and option texts of the choice editor inside `scope`, and the right options. */
async function fillChoice(scope: Locator, stem: string, options: readonly string[], right: readonly string[]) {
  await scope.getByTestId(/^(sub-)?stem-editor$/).fill(stem);
  for (const [i, text] of options.entries()) {
    const id = 'ABCDEFGH'[i]!;
    await scope.getByTestId(new RegExp(`^(sub-)?option-text-${id}$`)).fill(text);
  }
  for (const id of right) await scope.getByTestId(`option-right-${id}`).check();
}

/** A 1x1 PNG: the picture put in a stem. */
const DOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Puts a picture in the rich text `field` through its picture button's file input. One over the limit is refused
 * before it is sent, saying so; the picture within it shows in the field once stored.
 */
async function insertPicture(page: Page, field: Locator): Promise<void> {
  const input = field.locator('xpath=ancestor::div[contains(@class, "rich-text")][1]').getByTestId('image-input');
  const uploads: string[] = [];
  const onRequest = (r: { url: () => string }) => {
    if (new URL(r.url()).pathname === `/api${bankCalls.bankUploadImage.path}`) uploads.push(r.url());
  };
  page.on('request', onRequest);
  await input.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(BANK_LIMITS.imageBytes + 1),
  });
  await page.locator('.ant-message', { hasText: '图片不能超过 5 MB' }).waitFor();
  expect(uploads).toEqual([]);
  await input.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: DOT_PNG });
  await expect.poll(() => field.locator('img[alt="dot.png"]').count()).toBe(1);
  page.off('request', onRequest);
  expect(uploads).toHaveLength(1);
}

/** Writes the body of a question of `q.kind` in the open editor. */
async function writeBody(page: Page, q: Written): Promise<void> {
  const editor = page.getByTestId('question-editor');
  switch (q.kind) {
    case 'single':
      await fillChoice(editor, `${q.marker}: 1 + 1 = ?`, ['1', '2', '3', '4'], ['B']);
      return insertPicture(page, editor.getByTestId('stem-editor'));
    case 'multiple':
      return fillChoice(editor, `${q.marker}: 哪些是质数?`, ['4', '5', '6', '7'], ['B', 'D']);
    case 'indefinite':
      return fillChoice(editor, `${q.marker}: 哪些是偶数?`, ['2', '3', '5', '9'], ['A']);
    case 'true_false':
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 地球是圆的。`);
      return editor.getByTestId('option-right-A').check();
    case 'gradient':
      // The default points fall from A (4) to D (1): A is the best answer.
      return fillChoice(editor, `${q.marker}: 同事求助时你会?`, ['马上帮忙', '忙完再帮', '推荐别人', '不理会'], []);
    case 'evaluation':
      // The agreement scale and its points are the editor's defaults.
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 我喜欢和团队一起解决问题。`);
      return editor.getByTestId('dimension-input').fill(q.marker.includes('teamwork') ? '团队合作' : '好奇心');
    case 'fill_blank':
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 中国的首都是 ___，一周有 ___ 天。`);
      await addTags(page, editor.getByTestId('blank-variants-0'), ['北京', 'Beijing']);
      await editor.getByTestId('blank-add').click();
      return addTags(page, editor.getByTestId('blank-variants-1'), ['7']);
    case 'qa':
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 谈谈你对数据库事务的理解。`);
      return editor.getByTestId('rubric-input').fill('ACID 四个特性各 2 分。');
    case 'programming_qa':
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 说明并实现一个栈。`);
      return editor.getByTestId('rubric-input').fill('push/pop 正确即可。');
    case 'reading': {
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 阅读短文并回答问题。`);
      await editor.getByTestId('passage-editor').fill('小明每天早上六点起床，然后去跑步。');
      const subs = editor.getByTestId('sub-editor');
      await fillChoice(subs.nth(0), '小明几点起床?', ['五点', '六点', '七点', '八点'], ['B']);
      await editor.getByTestId('sub-add').click();
      // The second sub-question is a true/false one (the fifth kind of the sub-question list).
      await chooseByIndex(page, subs.nth(1).getByTestId('sub-kind'), 4);
      await subs.nth(1).getByTestId('sub-stem-editor').fill('小明早上去游泳。');
      return subs.nth(1).getByTestId('option-right-B').check();
    }
    case 'listening': {
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 听录音，回答问题。`);
      await editor.getByTestId('audio-file-input').setInputFiles({
        name: 'beeps.wav',
        mimeType: 'audio/wav',
        buffer: beepsWav(3),
      });
      // The server reads the length of the audio: three beeps of 0.6 s and a tail.
      await expect.poll(() => editor.getByTestId('audio-stored').textContent()).toMatch(/2\.1/);
      return fillChoice(editor.getByTestId('sub-editor').nth(0), '你听到几声?', ['一', '二', '三', '四'], ['C']);
    }
    case 'programming': {
      await editor.getByTestId('stem-editor').fill(`${q.marker}: 读入两个整数 a 和 b，输出 a + b。`);
      await editor.getByTestId('sample-add').click();
      await editor.getByTestId('sample-input').fill('1 2\n');
      await editor.getByTestId('sample-output').fill('3\n');
      await editor.getByTestId('cases-file-input').setInputFiles({
        name: 'cases.zip',
        mimeType: 'application/zip',
        buffer: casesZip(),
      });
      await editor.getByTestId('cases-summary').filter({ hasText: '3' }).waitFor();
      await editor.getByTestId('reference-add').click();
      const language = editor.getByTestId('reference-language');
      await language.click();
      await page.keyboard.type('Python');
      await page.keyboard.press('Enter');
      await expect.poll(() => language.textContent()).toMatch(/Python/);
      return setCode(page, editor.getByTestId('reference-source'), PY_SUM);
    }
  }
}

/**
 * Writes one question in the bank's editor drawer: the kind, its body, its points; saves it and answers its
 * id. The drawer is closed afterwards.
 */
async function writeQuestion(page: Page, q: Written): Promise<number> {
  await page.getByTestId('bank-new').click();
  const editor = page.getByTestId('question-editor');
  await editor.waitFor();
  if (q.kind !== 'single') await chooseByIndex(page, editor.getByTestId('kind-select'), QUESTION_KINDS.indexOf(q.kind));
  await page.locator(`[data-testid="question-editor"][data-kind="${q.kind}"]`).waitFor();
  await writeBody(page, q);
  await inputOf(editor.getByTestId('default-score')).fill(String(q.points));
  await page.getByTestId('question-save').click();
  // A saved question reopens as itself: its id is in the address.
  await page.waitForURL(/[?&]edit=\d+/);
  const id = Number(new URL(page.url()).searchParams.get('edit'));
  // The drawer now edits the stored question (its title says which).
  await page.locator('.ant-drawer-title', { hasText: `#${id}` }).waitFor();
  await page.getByTestId('question-info').waitFor();
  if (q.kind === 'programming') {
    // The judge runs the reference solution on the sample and every hidden case; all are accepted.
    await page.getByTestId('reference-verify').click();
    const verification = page.locator('[data-testid="verification"][data-ok="true"]');
    await verification.waitFor({ timeout: 60_000 });
    const verdicts = await verification.locator('.ant-tag').allTextContents();
    expect(verdicts).toEqual(Array(1 + Object.keys(HIDDEN_CASES).length).fill('AC'));
  }
  await page.getByTestId('question-close').click();
  await page.getByTestId('question-editor').waitFor({ state: 'detached' });
  return id;
}

/** Creates the ten tagged single-choice questions of the draw through the bank's call, as the author. */
async function createDrawPool(page: Page): Promise<void> {
  for (let k = 1; k <= 10; k++) {
    await staffCall(page, '/admin/bank/questions', {
      question: {
        kind: 'single',
        content: {
          stem: `<p>E2E-draw ${k}: 选 ${drawKey(k)}</p>`,
          options: ['A', 'B', 'C', 'D'].map((id) => ({ id, content: `选项 ${id}` })),
        },
        key: { option: drawKey(k) },
      },
      tags: [DRAW_TAG],
      difficulty: 2,
      default_score: DRAW_POINTS,
    });
  }
}

/** Opens a tab of the exam editor. */
async function editorTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect.poll(() => page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
}

/** Picks every question the picker lists (after a search, when given) into fixed section `index`. */
async function pickInto(page: Page, index: number, search: string | null, expected: number): Promise<void> {
  await page.getByTestId(`section-pick-${index}`).click();
  const picker = page.getByTestId('question-picker');
  await picker.waitFor();
  if (search !== null) await inputOf(picker.getByTestId('bank-search')).fill(search);
  const rows = picker.locator('.ant-table-tbody tr.ant-table-row');
  await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(expected);
  await picker.locator('.ant-table-thead input[type="checkbox"]').check();
  await picker
    .getByTestId('picker-add')
    .filter({ hasText: String(expected) })
    .click();
  await picker.waitFor({ state: 'detached' });
}

/** Sets the exam's window in the range picker (server wall clock, as the page shows it). */
async function setWindow(page: Page, start: number, end: number): Promise<void> {
  const inputs = page.getByTestId('exam-basics').locator('.ant-picker-range input');
  for (const [i, ms] of [start, end].entries()) {
    const input = inputs.nth(i);
    await input.click();
    await input.fill(formatServerTime(ms).slice(0, 16));
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => inputs.nth(0).inputValue()).toBe(formatServerTime(start).slice(0, 16));
  await expect.poll(() => inputs.nth(1).inputValue()).toBe(formatServerTime(end).slice(0, 16));
}

// ---------------------------------------------------------------- the candidate's side

/** Picks the options whose labels start with `id` (e.g. 'B.') inside `scope`, as a candidate clicks them. */
async function pick(scope: Locator, role: 'radio' | 'checkbox', ...ids: string[]) {
  for (const id of ids) {
    await scope.locator('label', { hasText: new RegExp(`^${id}\\.`) }).click();
    await expect.poll(() => scope.getByRole(role, { name: new RegExp(`^${id}\\.`) }).isChecked()).toBe(true);
  }
}

/** Answers the question on screen right, by what its stem says it is. */
async function answerRight(page: Page, q: Locator): Promise<string> {
  const stem = (await q.locator('.question-text').first().textContent()) ?? '';
  const draw = /E2E-draw (\d+)/.exec(stem);
  if (draw) {
    await pick(q, 'radio', drawKey(Number(draw[1])));
    return `draw ${draw[1]}`;
  }
  const written = [...FIXED, ...EVALUATION].find((w) => stem.includes(w.marker));
  if (!written) throw new Error(`a question the author did not write: ${stem}`);
  switch (written.kind) {
    case 'single':
      await pick(q, 'radio', 'B');
      break;
    case 'multiple':
      await pick(q, 'checkbox', 'B', 'D');
      break;
    case 'indefinite':
      await pick(q, 'checkbox', 'A');
      break;
    case 'true_false':
    case 'gradient':
    case 'evaluation':
      await pick(q, 'radio', 'A');
      break;
    case 'fill_blank':
      await q.getByTestId('blank-input').nth(0).fill('Beijing');
      await q.getByTestId('blank-input').nth(1).fill('7');
      break;
    case 'qa':
      await q.getByTestId('qa-editor').click();
      await page.keyboard.type('原子性、一致性、隔离性、持久性。');
      break;
    case 'programming_qa':
      await q.getByTestId('code-editor').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// a stack: push and pop at the end of an array');
      break;
    case 'reading': {
      const subs = q.getByTestId('sub-question');
      await pick(subs.nth(0), 'radio', 'B');
      await pick(subs.nth(1), 'radio', 'B');
      break;
    }
    case 'listening': {
      const plays = q.getByTestId('audio-plays-left');
      await plays.filter({ hasText: '2 / 2' }).waitFor();
      await q.getByTestId('audio-play').click();
      await plays.filter({ hasText: '1 / 2' }).waitFor();
      await pick(q.getByTestId('sub-question').nth(0), 'radio', 'C');
      break;
    }
    case 'programming':
      await chooseLanguage(page, q, /^Python$/);
      await setCode(page, q, PY_SUM);
      // A programming question scores from its judged submit.
      await q.getByTestId('judge-submit').click();
      await q
        .locator('[data-testid="judge-outcome"][data-mode="submit"] [data-testid="judge-verdict"][data-verdict="AC"]')
        .waitFor({ timeout: 60_000 });
      break;
  }
  return written.kind;
}

describe.runIf(browserAvailable())('the console journey: from an empty team to a scored exam', () => {
  // The exam built here requires the camera: Chromium's fake camera shows a face.
  const j = useJourney({}, faceVideoArgs());
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });
  // Each step builds on the one before: after a failure the rest are skipped instead of failing on its leftovers.
  let failed = false;
  beforeEach((ctx) => {
    if (failed) ctx.skip();
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') failed = true;
  });
  /** The author's console page, shared by the steps after it logs in. */
  let author: Page;
  let examId = 0;

  it('an admin creates a team and an author in it', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    contexts.push(context);
    await staffLogin(page, ADMIN, '/admin/staff?tab=teams');
    await page.getByTestId('team-create-name').fill(TEAM);
    await page.getByTestId('team-create-submit').click();
    await page.getByTestId('teams-table').getByText(TEAM).waitFor();

    await page.getByRole('tab', { name: '账号', exact: true }).click();
    await page.getByTestId('staff-create-name').fill(AUTHOR.name);
    await page.getByTestId('staff-create-phone').fill(AUTHOR.phone);
    await expect.poll(() => page.getByTestId('staff-create-role').textContent()).toBe('出题人');
    await chooseOption(page, page.getByTestId('staff-create-team'), TEAM);
    await page.getByTestId('staff-create-password').fill(AUTHOR.password);
    await page.getByTestId('staff-create-submit').click();
    const row = page.getByTestId('staff-table').locator('tr', { hasText: AUTHOR.phone });
    await row.waitFor();
    expect(await row.textContent()).toContain(TEAM);
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });

  it('the author writes every kind of question in the editors', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    contexts.push(context);
    author = page;
    await staffLogin(page, AUTHOR, '/admin/questions');
    const ids: number[] = [];
    for (const q of [...FIXED, ...EVALUATION]) ids.push(await writeQuestion(page, q));
    expect(new Set(ids).size).toBe(FIXED.length + EVALUATION.length);
    await createDrawPool(page);
    // Every question is in the author's team's bank (the list reloaded: the draw pool came through the API).
    await page.reload();
    await expect
      .poll(() => page.getByTestId('bank-table').locator('.ant-pagination-total-text').textContent())
      .toMatch(/23/);
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 240_000);

  it('the author builds the exam, publishes it, previews it with the keys, and invites a phone', async () => {
    const page = author;
    await page.getByTestId('nav-exams').click();
    await page.getByTestId('exam-new').click();
    const name = page.getByTestId('exam-create-name');
    // The dialog has put the caret in the name (autofocus) before the name is typed.
    await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
    await name.fill('E2E 校招笔试');
    await expect.poll(() => name.inputValue()).toBe('E2E 校招笔试');
    ({ exam_id: examId } = await clickForCall<{ exam_id: number }>(
      page,
      page.getByTestId('exam-create-submit'),
      '/admin/exam/create',
    ));
    await page.waitForURL(new RegExp(`/admin/exams/${examId}(\\D|$)`));

    // Open from an hour ago for a day, on the server's clock.
    const now = Date.now();
    await setWindow(page, now - 3_600_000, now + 86_400_000);

    await editorTab(page, '题目');
    // A fixed section of the eleven kinds.
    await chooseOption(page, page.getByTestId('section-new-kind'), '专业');
    await page.getByTestId('section-add-fixed').click();
    await pickInto(page, 0, 'E2E-fixed', FIXED.length);
    // The evaluation items in their own section (the picker offers only evaluation items there).
    await chooseOption(page, page.getByTestId('section-new-kind'), '测评');
    await page.getByTestId('section-add-fixed').click();
    await pickInto(page, 1, null, EVALUATION.length);
    // A draw of five of the ten tagged questions.
    await chooseOption(page, page.getByTestId('section-new-kind'), '行测');
    await page.getByTestId('section-add-draw').click();
    await inputOf(page.getByTestId('sections-2-draw-count')).fill(String(DRAW_COUNT));
    await inputOf(page.getByTestId('sections-2-draw-points')).fill(String(DRAW_POINTS));
    await chooseOption(page, page.getByTestId('sections-2-draw-tags'), DRAW_TAG);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="sections-2-draw-pool"][data-count="10"]').waitFor();

    // The phone check may be skipped (the other checks stay required).
    await editorTab(page, '规则');
    await page.getByTestId('set-check-mobileDevice').getByText('可跳过').click();

    // Leaving with unsaved changes asks first, through a link as through the browser's back button; staying keeps
    // the page and its changes.
    const editorUrl = page.url();
    for (const leave of [() => page.getByTestId('nav-home').click(), () => page.goBack({ waitUntil: 'commit' })]) {
      await leave();
      const ask = page.getByRole('dialog').filter({ hasText: '离开并放弃未保存的修改？' });
      await ask.getByRole('button', { name: '留在此页' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(page.url()).toBe(editorUrl);
      await page.getByTestId('exam-dirty').waitFor();
    }

    await page.getByTestId('exam-save').click();
    await page.getByTestId('exam-dirty').waitFor({ state: 'detached' });
    await page.getByTestId('exam-publish').click();
    await page.getByTestId('exam-publish-confirm').click();
    await page.locator('[data-testid="exam-status"][data-status="published"]').waitFor({ timeout: 60_000 });

    // Preview as a candidate: the real candidate pages open in a new tab, straight to the exam (no profile form).
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId('exam-preview').click(),
    ]);
    preview.setDefaultTimeout(15_000);
    await preview.waitForURL(/\/exam\/\d+\/\d+$/);
    // The entry page itself: a candidate without a complete profile would have been sent to the profile form.
    await preview.getByTestId('entry-start').click();
    await preview.waitForURL(/\/monitor$/);
    await passMonitorChecks(preview, 'skip');
    await preview.waitForURL(/\/answer$/);
    // The keys switch shows the key of a question: the first single choice one.
    const cells = preview.getByTestId('card-item');
    await cells.first().waitFor();
    let shown = false;
    for (let i = 0; i < (await cells.count()) && !shown; i++) {
      await cells.nth(i).click();
      const q = preview.locator(`[data-testid="question"][data-id="${await cells.nth(i).getAttribute('data-id')}"]`);
      await q.waitFor();
      if ((await q.getAttribute('data-type')) !== '1') continue;
      const draw = /E2E-draw (\d+)/.exec((await q.locator('.question-text').first().textContent()) ?? '');
      const right = draw ? drawKey(Number(draw[1])) : 'B';
      expect(await q.getByTestId('preview-key').count()).toBe(0);
      await q.getByTestId('preview-keys-switch').click();
      await q
        .getByTestId('preview-key')
        .locator('.ant-descriptions-item-content', { hasText: new RegExp(`^${right}$`) })
        .waitFor();
      shown = true;
    }
    expect(shown).toBe(true);
    await preview.close();

    await editorTab(page, '邀请与短信');
    await page.getByTestId('invite-phones').fill(CANDIDATE_PHONE);
    await page.getByTestId('invite-submit').click();
    await page.getByTestId('invite-result').getByText(CANDIDATE_PHONE).waitFor();
  }, 180_000);

  it('the invited candidate takes the exam and gets every automatically scored point', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    contexts.push(context);
    await loginAs(page, j.server, CANDIDATE_PHONE);
    await openDemoChecks(page);
    await passMonitorChecks(page, 'skip');
    await page.waitForURL(/\/answer$/);
    expect(examIdsOf(page).examId).toBe(examId);
    const auth = await authOf(context);

    const cells = page.getByTestId('card-item');
    await cells.first().waitFor();
    // Eleven kinds, two evaluation items, and five drawn questions (the evaluation card loads on its own).
    await expect.poll(() => cells.count()).toBe(FIXED.length + EVALUATION.length + DRAW_COUNT);
    const answered: string[] = [];
    for (let i = 0; i < (await cells.count()); i++) {
      const cell = cells.nth(i);
      await cell.click();
      const q = page.locator(`[data-testid="question"][data-id="${await cell.getAttribute('data-id')}"]`);
      await q.waitFor();
      answered.push(await answerRight(page, q));
      await expect.poll(() => cell.getAttribute('data-answered'), { timeout: 10_000 }).toBe('1');
    }
    // Five different questions of the ten were drawn.
    expect(new Set(answered.filter((a) => a.startsWith('draw'))).size).toBe(DRAW_COUNT);
    expect(new Set(answered.filter((a) => !a.startsWith('draw')))).toEqual(
      new Set([...FIXED, ...EVALUATION].map((q) => q.kind)),
    );
    for (let i = 0; i < (await cells.count()); i++) {
      await expect.poll(() => cells.nth(i).getAttribute('data-save'), { timeout: 15_000 }).toBe('saved');
    }

    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/);
    const result = await api<{ score: number; max_score: number }>(j.server, auth, 'GET', '/exam/result', {
      exam_id: examId,
    });
    expect(result).toMatchObject({ score: EXPECTED_SCORE, max_score: EXPECTED_MAX });
    expect(await page.getByTestId('result-score').textContent()).toContain(`${EXPECTED_SCORE} / ${EXPECTED_MAX}`);
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 180_000);
});
