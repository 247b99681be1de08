/**
 * The candidate's pages, every one, in Chinese and in English at 1440×900 and 1280×720 (TOUR_SETTINGS), each stop
 * checked as a whole by the page auditor (stray words either way, raw keys, epochs, overflow, shared ids, nested
 * landmarks, axe) with its screenshot under e2e/screenshots/: the login (phone step, code step, and after a session
 * ended), the exam list (an open exam and an ended one), the profile, the exam's entry, each device check (one
 * skipped), the phone page from the QR code's link (also at a phone's size), every question kind of the demo exam
 * (the answer card beside it, the code editor, the judge's result), the submit dialog, the result (integrity log,
 * evaluation profile), a practice exam's explanations, and the not-found page.
 */
import { KIND_SPECS } from '@examhall/contract';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_POSITIONS, DEMO_QUESTIONS, DEMO_SECTION_TITLES } from '../packages/server/src/services/demoExam.js';
import { DEMO_EXAM_NAME } from '../packages/server/src/services/demoSeed.js';
import { COLLEGES, MAJORS } from '../packages/server/src/services/referenceData.js';
import { browserAvailable, newPage } from './support/browser.js';
import { smallPdf } from './support/candidate.js';
import { chooseLanguage, setCode } from './support/code.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { pageAuditor, settingName, TOUR_SETTINGS, type PageAuditor, type TourSetting } from './support/pageAudit.js';
import { ADMIN } from './support/server.js';

/** A phone's window (the phone page's second view). */
const PHONE_VIEWPORT = { width: 390, height: 844 };
/** The practice exam: one question whose explanation candidates read after submitting. */
const PRACTICE = {
  name: '巡检练习 Tour practice',
  explanation: '每一项都是前一项的两倍 Each term doubles the one before',
  feedback: '12 只加了 4 · 12 only adds 4',
};
/** An exam whose window closed before the candidates saw the list. */
const ENDED_NAME = '已截止的笔试 A closed exam';
/** The pledge of the exams published here. */
const PLEDGE = '我承诺独立完成本次考试。I will take this exam on my own.';
/** What a candidate enters on the profile. */
const PERSON = { name: '巡检 Tour', year: '2025' };
/** A wrong A+B in Python: the judge's result shows the output beside the expected one. */
const PY_WRONG = 'a, b = map(int, input().split())\nprint(a - b)\n';
/** The school and major a candidate types (their own words, not picked from the lists). */
const SCHOOL = '巡检大学 Tour University';
const MAJOR = '计算机科学 Computer Science';

/**
 * The text nodes HTML that staff wrote puts on a page (each piece between two tags), from every string in `value`:
 * the demo's questions are written in both languages, and shown as written.
 */
function authoredTexts(value: unknown): string[] {
  if (typeof value === 'string') {
    return value
      .split(/<[^>]*>/)
      .map((piece) =>
        piece
          .replace(/&nbsp;/g, ' ')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&')
          .trim(),
      )
      .filter(Boolean);
  }
  if (Array.isArray(value)) return value.flatMap(authoredTexts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(authoredTexts);
  return [];
}

/** Texts staff or candidates wrote, shown as written in either language. */
const DATA = [
  DEMO_EXAM_NAME,
  // The demo's description (demoSeed.ts).
  '本演示考试包含全部 11 种题型。 / This demo covers all 11 question types.',
  ...authoredTexts(Object.values(DEMO_QUESTIONS).flatMap((qs) => qs.map((q) => q.content))),
  ...Object.values(DEMO_SECTION_TITLES),
  ...DEMO_POSITIONS.flatMap((p) => [p.title, p.department, p.city, p.description]),
  // The profile's lists of colleges (their cities) and majors, proper names in both languages.
  ...COLLEGES.flatMap((c) => [c.name, c.city]),
  ...MAJORS.flatMap((m) => [m.category, ...m.majors]),
  PRACTICE.name,
  ENDED_NAME,
  PLEDGE,
  PERSON.name,
  SCHOOL,
  MAJOR,
];

/** Each kind by the type id a question on the page carries (data-type), and the types answered with code. */
// (An evaluation item shares its type with gradient choice, whose name it keeps; the page marks it data-type="ceping".)
const KIND_OF_TYPE = new Map<string, string>(
  KIND_SPECS.map((s) => [String(s.type), s.kind]).reverse() as [string, string][],
);
const CODE_TYPES = new Set(KIND_SPECS.filter((s) => s.answer === 'code').map((s) => String(s.type)));

/** The first phone of the tour's candidates; each setting's candidate has the next one. */
const FIRST_PHONE = 13_700_137_100;

describe.runIf(browserAvailable())('the candidate tour', () => {
  const j = useJourney();
  let staff: { context: BrowserContext; page: Page };
  let demoId = 0;
  let practiceId = 0;

  let ready: Promise<void> | null = null;
  /** The staff's set-up, made by the first journey and shared by all (expect.poll works only inside a test). */
  const setUp = () => (ready ??= publishAndInvite());
  async function publishAndInvite(): Promise<void> {
    staff = await newPage(j.browser, j.server.baseUrl);
    const page = staff.page;
    await staffLogin(page, ADMIN, '/admin/exams');
    const open = page.locator('[data-testid^="exam-open-"]').first();
    demoId = Number((await open.getAttribute('data-testid'))!.replace('exam-open-', ''));
    const now = Date.now();
    practiceId = await publishExam(page, { name: PRACTICE.name, mode: 0, opensAt: now - 3_600_000, explained: true });
    const endedId = await publishExam(page, { name: ENDED_NAME, mode: 1, opensAt: now - 3_600_000 });
    await staffCall(page, '/admin/exam/live-change', { exam_id: endedId, end_at: now - 60_000 });
    const phones = TOUR_SETTINGS.map((_, i) => ({ phone: String(FIRST_PHONE + i) }));
    for (const examId of [demoId, practiceId, endedId])
      await staffCall(page, '/admin/exam/invite', { exam_id: examId, phones });
  }
  afterAll(async () => staff?.context.close());

  TOUR_SETTINGS.forEach((setting, i) => {
    it(`stops at every candidate page in ${settingName(setting)}`, async () => {
      await setUp();
      const auditor = pageAuditor(setting, 'candidate', DATA);
      const { context, page } = await newPage(j.browser, j.server.baseUrl, {
        viewport: setting.viewport,
        locale: setting.lang,
      });
      try {
        await tour(page, setting, auditor, String(FIRST_PHONE + i));
      } finally {
        await context.close();
      }
      expect(auditor.found, auditor.found.join('\n')).toEqual([]);
    }, 420_000);
  });

  /** One candidate's way through every page. */
  async function tour(page: Page, setting: TourSetting, auditor: PageAuditor, phone: string): Promise<void> {
    const stop = auditor.stop.bind(auditor, page);
    const { server } = j;

    // Login: the phone step, then the code step.
    await page.goto('/login');
    await page.getByTestId('phone-input').waitFor();
    await stop('login-phone');
    await page.getByTestId('phone-input').fill(phone);
    await page.getByTestId('send-code').click();
    const code = await server.sms.waitForCode(phone, 10_000, 0);
    await page.getByTestId('code-input').waitFor();
    await stop('login-code');
    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/exams$/);

    // The list: the demo and the practice exam open, the other one ended.
    await page.locator('[data-testid="exam-item"]').nth(2).waitFor();
    await expect.poll(() => page.locator('[data-testid="exam-window"][data-window="ended"]').count()).toBe(1);
    await stop('exams');

    // The profile, empty, then filled in.
    await page.getByTestId('profile-link').click();
    await page.getByTestId('profile-form').waitFor();
    await stop('profile-empty');
    await fillProfile(page);
    await stop('profile-filled', { data: ['resume.pdf'] });
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-save').and(page.locator(':not(.ant-btn-loading)')).waitFor();

    // The ended exam's entry, reached by its link.
    const index = await page.request.get('/api/exam/index', { params: { page: 1, page_size: 100 } });
    const listed = ((await index.json()) as { data: { list: { id: number; anid: number; name: string }[] } }).data.list;
    const ended = listed.find((e) => e.name === ENDED_NAME)!;
    await page.goto(`/exam/${ended.id}/${ended.anid}`);
    // It says the exam has closed, and offers nothing to start.
    await page.getByTestId('entry-closed').waitFor();
    expect(await page.getByTestId('entry-start').count()).toBe(0);
    await stop('entry-ended');

    // The demo exam's entry and its checks.
    await page.goto('/exams');
    await page.locator(`[data-testid="exam-item"][data-exam="${demoId}"]`).getByTestId('exam-enter').click();
    await page.getByTestId('entry-start').waitFor();
    await stop('entry');
    await page.getByTestId('entry-start').click();
    await page.waitForURL(/\/monitor$/);
    await checks(page, setting, auditor);
    await page.waitForURL(/\/answer$/);
    await page.getByTestId('question').waitFor();

    // Every question of the demo, with the answer card beside it.
    const cells = page.getByTestId('card-item');
    const count = await cells.count();
    expect(count).toBeGreaterThan(10);
    for (let n = 0; n < count; n++) {
      const id = await cells.nth(n).getAttribute('data-id');
      await cells.nth(n).click();
      const question = page.locator(`[data-testid="question"][data-id="${id}"]`);
      await question.waitFor();
      const type = (await question.getAttribute('data-type')) ?? '';
      const kind = KIND_OF_TYPE.get(type) ?? type;
      if (CODE_TYPES.has(type)) {
        // The code editor loads with the question: the stop is taken once it is in.
        await question.getByTestId('code-editor').waitFor();
        await stop(`question-${n + 1}-${kind}-editor`);
        if ((await question.getByTestId('judge-run').count()) > 0) await judgeRun(page, question, stop, n + 1, kind);
      } else {
        await stop(`question-${n + 1}-${kind}`);
      }
    }

    // The submit dialog, then the result.
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').waitFor();
    await stop('submit-dialog', { within: '[role="dialog"]' });
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/, { timeout: 45_000 });
    await page.getByTestId('result-title').waitFor();
    await page.getByTestId('result-dimensions').waitFor();
    await stop('result');
    await page.getByTestId('integrity-toggle').click();
    await page.getByTestId('integrity-log').locator('.ant-table').waitFor();
    await page.getByTestId('integrity-log').scrollIntoViewIfNeeded();
    await stop('result-integrity-log');
    const resultUrl = page.url();

    // The practice exam: no checks but the pledge, one question, its explanation after submitting.
    await page.goto('/exams');
    await page.locator(`[data-testid="exam-item"][data-exam="${practiceId}"]`).getByTestId('exam-enter').click();
    await page.getByTestId('entry-start').click();
    await page.waitForURL(/\/monitor$/);
    await signPledge(page);
    await page.getByTestId('start-exam').click();
    await page.waitForURL(/\/answer$/);
    const q = page.getByTestId('question').first();
    await q.locator('[data-testid="choice-option"][data-option="A"]').click();
    await expect.poll(() => page.getByTestId('card-item').first().getAttribute('data-save')).toBe('saved');
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/);
    await page.getByTestId('explained').waitFor();
    await stop('result-explanations', { data: [PRACTICE.explanation, PRACTICE.feedback] });

    // The list once both are handed in.
    await page.goto('/exams');
    await page.locator('[data-testid="exam-state"][data-own="submitted"]').nth(1).waitFor();
    // Nothing among the finished exams is tagged as open; the practice, whose window is, may be taken again.
    expect(await page.getByTestId('exam-group-finished').getByTestId('exam-item').count()).toBe(2);
    expect(await page.getByTestId('exam-group-finished').locator('[data-window="open"]').count()).toBe(0);
    const practice = page
      .getByTestId('exam-group-open')
      .locator(`[data-testid="exam-item"][data-exam="${practiceId}"]`);
    await practice.getByTestId('exam-again').waitFor();
    expect(await practice.getByTestId('exam-enter').getAttribute('data-action')).toBe('result');
    await stop('exams-submitted');

    // The session ends: the way back to the result asks for a login, and says the answers are safe.
    await page.context().clearCookies();
    await page.goto(resultUrl);
    await page.getByTestId('login-exam-notice').waitFor();
    await stop('login-session-ended');

    // A page that does not exist.
    await page.goto('/no-such-page');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await stop('not-found');
  }

  /** Each device check of the monitor page, stopping at each; the camera (no face in the test pattern) is skipped. */
  async function checks(page: Page, setting: TourSetting, auditor: PageAuditor): Promise<void> {
    const stop = auditor.stop.bind(auditor, page);
    const current = page.getByTestId('current-step');
    const leave = async (step: string) =>
      expect.poll(() => current.getAttribute('data-step').catch(() => null)).not.toBe(step);
    for (;;) {
      await current.or(page.getByTestId('checks-done')).first().waitFor();
      if (await page.getByTestId('checks-done').isVisible()) break;
      const step = (await current.getAttribute('data-step')) ?? '';
      switch (step) {
        case 'camera':
          await stop('check-camera');
          await page.getByTestId('device-open').click();
          await page.getByTestId('stream-preview').waitFor();
          await page.getByTestId('take-picture').click();
          await page.getByTestId('face-result').waitFor({ timeout: 90_000 });
          await stop('check-camera-picture');
          expect(await page.getByTestId('face-result').getAttribute('data-verdict')).not.toBe('passed');
          await page.getByTestId('step-skip').click();
          await leave(step);
          await stop('check-after-skip');
          continue;
        case 'microphone':
          await page.getByTestId('device-open').click();
          await page.getByTestId('mic-level').waitFor();
          await stop('check-microphone');
          break;
        case 'screenSharing':
          await page.getByTestId('device-open').click();
          await page.getByTestId('stream-preview').waitFor();
          await stop('check-screen');
          break;
        case 'mobileDevice': {
          await page.getByTestId('phone-qr').waitFor();
          await stop('check-phone');
          const link = await page.getByTestId('phone-link').getAttribute('href');
          await phonePage(link!, setting, auditor);
          await page.locator('[data-testid="phone-status"][data-connected="1"]').waitFor({ timeout: 30_000 });
          await stop('check-phone-connected');
          break;
        }
        case 'signature':
          await signPledge(page, stop);
          continue;
        default:
          throw new Error(`unexpected monitor step ${step}`);
      }
      await page.getByTestId('step-pass').click();
      await leave(step);
    }
    await stop('checks-done');
    await page.getByTestId('start-exam').click();
  }

  /** The phone page from the link, in the setting's window and at a phone's size. */
  async function phonePage(link: string, setting: TourSetting, auditor: PageAuditor): Promise<void> {
    const phone = await newPage(j.browser, j.server.baseUrl, { viewport: setting.viewport, locale: setting.lang });
    await phone.page.goto(link);
    await phone.page.getByTestId('phone-page').waitFor();
    await expect
      .poll(async () => Number(await phone.page.getByTestId('phone-status').getAttribute('data-sent')), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    await auditor.stop(phone.page, 'phone');
    await phone.page.setViewportSize(PHONE_VIEWPORT);
    await auditor.stop(phone.page, 'phone-small');
    // The phone page stays open (its context with it) while the monitor page sees it connected.
  }

  /** The pledge step: ticked, signed, sent. */
  async function signPledge(page: Page, stop?: (name: string) => Promise<void>): Promise<void> {
    await page.locator('[data-testid="current-step"][data-step="signature"]').waitFor();
    await page.getByTestId('pledge-check').check();
    const pad = page.getByTestId('signature-pad');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 30, y);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(box.x + 30 + k * 25, y + (k % 2 ? -20 : 20), { steps: 2 });
    await page.mouse.up();
    if (stop) await stop('check-signature');
    await page.getByTestId('signature-submit').click();
    await page.getByTestId('checks-done').waitFor();
  }

  /** Fills the profile form with the candidate's own words and a PDF resume (saved by the caller). */
  async function fillProfile(page: Page): Promise<void> {
    await page.getByTestId('profile-name').fill(PERSON.name);
    for (const [id, text] of [
      ['profile-school', SCHOOL],
      ['profile-major', MAJOR],
    ] as const) {
      const field = page
        .getByTestId(id)
        .locator('input')
        .or(page.locator(`input[data-testid="${id}"]`))
        .first();
      await field.fill(text);
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('profile-degree').locator('label').nth(1).click();
    await page
      .getByTestId('profile-year')
      .locator('input')
      .or(page.locator('input[data-testid="profile-year"]'))
      .first()
      .fill(PERSON.year);
    await page
      .getByTestId('resume-input')
      .setInputFiles({ name: 'resume.pdf', mimeType: 'application/pdf', buffer: smallPdf() });
    await page.getByTestId('resume-current').filter({ hasText: 'resume.pdf' }).waitFor();
  }

  /** Runs a wrong Python program on the sample and stops at the judge's result. */
  async function judgeRun(
    page: Page,
    question: Locator,
    stop: (name: string) => Promise<void>,
    n: number,
    kind: string,
  ): Promise<void> {
    await chooseLanguage(page, question, /^Python/);
    await setCode(page, question, PY_WRONG);
    await question.getByTestId('judge-run').click();
    await question.locator('[data-testid="judge-outcome"] [data-testid="judge-verdict"]').waitFor({ timeout: 60_000 });
    await stop(`question-${n}-${kind}-judged`);
    // Down at the end of a long question, the exam's header (timer, submit) stays in sight.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect((await page.locator('.exam-header').boundingBox())?.y).toBe(0);
  }
});

/**
 * Publishes an exam of one single-choice question (key B) open from `opensAt` for a day, with no device check but
 * the pledge; `explained` gives the question an explanation and feedback on option A, and `mode` 0 (practice)
 * shows them after submitting.
 */
async function publishExam(
  page: Page,
  exam: { name: string; mode: 0 | 1; opensAt: number; explained?: boolean },
): Promise<number> {
  const question = await staffCall<{ id: number }>(page, '/admin/bank/questions', {
    question: {
      kind: 'single',
      content: {
        stem: '<p>2, 4, 8, ?</p>',
        options: [
          { id: 'A', content: '12' },
          { id: 'B', content: '16' },
        ],
      },
      key: { option: 'B' },
    },
    explanation: exam.explained
      ? { text: `<p>${PRACTICE.explanation}</p>`, options: { A: `<p>${PRACTICE.feedback}</p>` } }
      : null,
    default_score: 10,
  });
  const { exam_id: examId } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', { name: exam.name });
  const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
    exam_id: examId,
    revision: 0,
    draft: {
      name: exam.name,
      mode: exam.mode,
      time_minutes: 30,
      start_at: exam.opensAt,
      end_at: exam.opensAt + 24 * 3_600_000,
      settings: { is_close_camera: 1, is_close_microphone: 1, is_close_screen: 1, is_close_phone: 1 },
      pledge: PLEDGE,
      sections: [{ kind: 'linetest', title: '', items: [{ question_id: question.id, points: 10 }] }],
    },
  });
  await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
  return examId;
}
