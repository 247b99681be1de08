/**
 * The console tour: every console page, tab, drawer and dialog as the admin sees it, in Chinese and in English at
 * 1440×900 and 1280×720 (TOUR_SETTINGS), each stop checked by the page auditor (words in the other language, raw
 * keys, epochs, overflow, shared ids, nested landmarks, axe) and saved as a screenshot under e2e/screenshots/.
 *
 * The data is made once through the API, so every page has something to show: the demo exam taken by four
 * candidates (two of them with alike code, so similarity has pairs; Q&A answers to mark) and entered by a fifth
 * with a flag, a team, an export, a similarity run, an API token and a webhook with a test delivery.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { detail } from '@examhall/contract';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_POSITIONS, DEMO_QUESTIONS, DEMO_SECTION_TITLES } from '../packages/server/src/services/demoExam.js';
import { startHookReceiver } from '../packages/server/src/test/webhookReceiver.js';
import { browserAvailable, newPage } from './support/browser.js';
import { api, candidateToken, enterByApi, saveAnswer, startAttempt } from './support/candidate.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { pageAuditor, settingName, TOUR_SETTINGS, type TourSetting } from './support/pageAudit.js';
import { ADMIN, DEMO_PHONE, type TestServer } from './support/server.js';

/** Question types of the demo exam's Q&A and programming questions. */
const QA_TYPE = 5;
const PROGRAMMING_TYPE = 6;

const FIXTURES = path.resolve('packages/server/src/similarity/fixtures/python');
const sample = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

/** The candidates who finish the exam: their names (data), Q&A answers and code (the first two alike). */
const TAKERS = [
  { phone: '13700137701', name: '李雷', answer: '原子性、一致性、隔离性、持久性。', code: sample('original.py') },
  { phone: '13700137702', name: '韩梅梅', answer: '原子性和一致性。', code: sample('copied.py') },
  { phone: '13700137703', name: 'Lucy Wang', answer: 'Atomicity and durability.', code: sample('independent.py') },
  { phone: '13700137704', name: '王芳', answer: '不太清楚。', code: sample('same_idea.py') },
] as const;

/** What the journey's set-up made, for the stops to find. */
interface TourData {
  examId: number;
  examName: string;
  /** A bank folder to import into. */
  folderId: number;
  programmingId: number;
  /** The attempt of the candidate still in the exam, with a flag. */
  liveAttempt: number;
  /** Texts people entered, shown as written in both languages. */
  data: string[];
}

/**
 * The demo seed's texts as written (its questions, options, rubrics, sections and positions, some in English and
 * some in Chinese), with the tag, author and phone it gives its questions: content, shown as entered.
 */
function seedTexts(): string[] {
  const out: string[] = [
    'demo',
    'demo-content',
    '演示内容 Demo content',
    '演示题目 Demo questions',
    '本演示考试包含全部 11 种题型。 / This demo covers all 11 question types.',
  ];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      // Rich text: each piece between tags, as the page's text nodes hold it.
      for (const piece of v.replace(/&nbsp;/g, ' ').split(/<[^>]*>/)) if (piece.trim()) out.push(piece.trim());
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk([DEMO_QUESTIONS, DEMO_POSITIONS, DEMO_SECTION_TITLES]);
  return out;
}

/** A GIFT file of two questions, for the bank's import preview. */
const GIFT = '::Status:: Which status code means "not found"? {=404 ~200 ~500}\n\n::Port:: HTTPS port? {=443}\n';
/** A candidate list, for the candidates' import preview. */
const CANDIDATE_CSV = '手机号,姓名,学校\n13700137801,赵磊,清华大学\n13700137802,钱多,北京大学\n';

/** One candidate takes the exam over the API: the Q&A answer and code saved, then finished. */
async function take(server: TestServer, c: (typeof TAKERS)[number], examId: number, finish: boolean) {
  const { auth, attemptId, questions } = await startAttempt(server, c.phone, examId);
  const programming = questions.find((q) => q.type === PROGRAMMING_TYPE)!.id;
  const qa = questions.find((q) => q.type === QA_TYPE)!.id;
  await saveAnswer(server, auth, examId, qa, { kind: 'text', html: `<p>${c.answer}</p>`, files: [] });
  await saveAnswer(server, auth, examId, programming, { kind: 'code', language: 'python', code: c.code });
  if (finish) await api(server, auth, 'POST', '/monitor/finish-exam', { exam_id: examId });
  return { auth, attemptId, programming };
}

/** Makes everything the pages show, as the admin over the API. */
async function makeData(page: Page, server: TestServer, hookUrl: string): Promise<TourData> {
  const demo = await candidateToken(server, DEMO_PHONE);
  const exam = (await api<{ list: { id: number; name: string; anid: number }[] }>(server, demo, 'GET', '/exam/index'))
    .list[0]!;
  for (const c of TAKERS) {
    await staffCall(page, '/admin/candidates', { area_code: '86', phone: c.phone, name: c.name });
  }
  await staffCall(page, '/admin/exam/invite', {
    exam_id: exam.id,
    phones: TAKERS.map((c) => ({ phone: c.phone, area_code: '86' })),
    send_sms: false,
  });
  let programmingId = 0;
  for (const c of TAKERS) programmingId = (await take(server, c, exam.id, true)).programming;

  // The demo candidate stays in the exam with a flag: the live grid's tile and the attempt drawer's record.
  const live = await enterByApi(server, demo, exam.id, exam.anid);
  const flagged = await fetch(`${server.baseUrl}/api/monitor/record-risk?auth=${demo}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      exam_id: String(exam.id),
      risk: '11',
      trigger_time: String(Date.now()),
      detail: detail.faces(2),
      client_id: randomUUID(),
    }).toString(),
  });
  expect(flagged.status).toBe(200);

  await staffCall(page, '/admin/teams', { name: '校园招聘组' });
  const folder = await staffCall<{ id: number }>(page, '/admin/bank/folders', { name: '网络基础' });
  await staffCall(page, '/admin/results/export', { exam_id: exam.id, format: 'xlsx', lang: 'zh' });
  await staffCall(page, '/admin/grading/similarity/run', { exam_id: exam.id, question_id: programmingId });
  await staffCall(page, '/admin/integrations/token/create', { name: 'Moka ATS' });
  const hook = await staffCall<{ id: number }>(page, '/admin/integrations/webhook/save', {
    url: hookUrl,
    secret: randomUUID() + randomUUID(),
    description: '招聘系统',
  });
  await staffCall(page, '/admin/integrations/webhook/test', { id: hook.id });
  // The similarity job has its pairs.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(
          `/api/admin/grading/similarity/pairs?exam_id=${exam.id}&question_id=${programmingId}`,
        );
        return ((await res.json()) as { data?: { total: number } }).data?.total ?? 0;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeGreaterThan(0);
  // The bank's questions as its list names them (the stem's plain text).
  const bank = await page.request.get('/api/admin/bank/questions?page_size=200');
  const stems = ((await bank.json()) as { data: { list: { stem: string }[] } }).data.list.map((q) => q.stem);
  const data = [
    ...seedTexts(),
    ...stems,
    ...TAKERS.map((c) => c.answer),
    `exam-${exam.id}-results.xlsx`,
    'network.gift',
    'Which status code means "not found"?',
    'HTTPS port?',
    'list.csv',
    '赵磊',
    '钱多',
    '清华大学',
    '北京大学',
    exam.name,
    ...TAKERS.map((c) => c.name),
    '校园招聘组',
    '网络基础',
    'Moka ATS',
    '招聘系统',
    hookUrl,
    'Administrator',
  ];
  return {
    examId: exam.id,
    examName: exam.name,
    folderId: folder.id,
    programmingId,
    liveAttempt: live.attempt.id,
    data,
  };
}

/**
 * Marks the drawer or dialog open on top (the last visible one) as the stop's `within`, so its checks cover that
 * layer alone: the mask dims what lies below on purpose.
 */
async function topLayer(page: Page): Promise<string> {
  await page.waitForFunction(() => {
    const layers = Array.from(document.querySelectorAll('.ant-drawer-content-wrapper, .ant-modal')).filter(
      (el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed',
    );
    const visible = layers.filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.left < window.innerWidth && r.right > 0;
    });
    for (const el of layers) el.removeAttribute('data-tour-layer');
    const top = visible.at(-1);
    top?.setAttribute('data-tour-layer', '');
    return top !== undefined;
  });
  return '[data-tour-layer]';
}

/** Waits until no spinner or skeleton is left on the page. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('.ant-spin-spinning, .ant-skeleton, [data-loading]').count(), { timeout: 15_000 })
    .toBe(0);
}

describe.runIf(browserAvailable())('console tour', () => {
  // The webhook's receiver listens on this machine: the operator lets webhooks reach private addresses.
  const j = useJourney({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  let tour: TourData;
  let receiver: Awaited<ReturnType<typeof startHookReceiver>> | undefined;
  let made: Promise<TourData> | undefined;

  /** The data, made once for the file by the first setting's test (inside a test: the set-up polls). */
  function ensureData(): Promise<TourData> {
    made ??= (async () => {
      receiver = await startHookReceiver('');
      const { context, page } = await newPage(j.browser, j.server.baseUrl);
      try {
        await staffLogin(page, ADMIN, '/admin');
        return await makeData(page, j.server, receiver.url);
      } finally {
        await context.close();
      }
    })();
    return made;
  }
  afterAll(async () => {
    await receiver?.close();
  });

  // The two full settings show every page in both languages and at both sizes; the other two (a second look at
  // each view) run with E2E_TOURS=all, which keeps the default run of the journeys shorter.
  const settings = process.env.E2E_TOURS === 'all' ? TOUR_SETTINGS : TOUR_SETTINGS.filter((s) => s.full);
  for (const setting of settings) {
    it(`visits every console page in ${settingName(setting)}`, async () => {
      tour = await ensureData();
      const auditor = pageAuditor(setting, 'console', tour.data);
      await visitAll(setting, auditor.stop.bind(auditor));
      expect(auditor.found, auditor.found.join('\n')).toEqual([]);
    }, 420_000);
  }

  /** The tour itself: the login page, then every page, tab, drawer and dialog of the console. */
  async function visitAll(
    setting: TourSetting,
    stop: (page: Page, name: string, options?: { within?: string; data?: readonly string[] }) => Promise<void>,
  ): Promise<void> {
    const zh = setting.lang === 'zh-CN';
    const { context, page } = await newPage(j.browser, j.server.baseUrl, {
      viewport: setting.viewport,
      locale: setting.lang,
    });
    const layer = async (name: string) => stop(page, name, { within: await topLayer(page) });
    const closeLayer = async () => {
      await page.keyboard.press('Escape');
      await page.locator('[data-tour-layer]').waitFor({ state: 'hidden' });
    };
    try {
      await page.goto('/admin/login');
      await page.getByTestId('staff-phone').waitFor();
      await stop(page, 'login');
      await page.getByTestId('staff-phone').fill(ADMIN.phone);
      await page.getByTestId('staff-password').fill(ADMIN.password);
      await page.getByTestId('staff-login-submit').click();
      await page.getByTestId('console-home').waitFor();
      await settled(page);
      await stop(page, 'home');

      // Exams: the list, the create dialog, the editor's every tab and its dialogs.
      await page.getByTestId('nav-exams').click();
      await page.getByTestId(`exam-open-${tour.examId}`).waitFor();
      await stop(page, 'exams');
      await page.getByTestId('exam-new').click();
      await page.getByTestId('exam-create-name').waitFor();
      await layer('exams-create');
      await closeLayer();
      await page.getByTestId(`exam-open-${tour.examId}`).click();
      const editor = page.getByTestId('exam-editor');
      await editor.waitFor();
      const tabs = await editor.getByRole('tab').all();
      expect(tabs.length).toBeGreaterThanOrEqual(10);
      for (const tab of tabs) {
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        await settled(page);
        const key = new URL(page.url()).searchParams.get('tab') ?? 'basics';
        await stop(page, `exam-${key}`);
        if (key === 'schedule') {
          await page.getByTestId('slot-add').click();
          await page.getByTestId('slot-label').waitFor();
          await layer('exam-schedule-slot');
          await closeLayer();
        }
        if (key === 'invite') {
          await page.getByTestId('invite-from-list').click();
          await page.locator('.ant-drawer input[type=file]').setInputFiles({
            name: 'list.csv',
            mimeType: 'text/csv',
            buffer: Buffer.from(CANDIDATE_CSV),
          });
          await page.getByTestId('candidate-import-counts').waitFor();
          await layer('exam-invite-from-list');
          await closeLayer();
        }
      }
      const preview = context.waitForEvent('page');
      await page.getByTestId('exam-preview').click();
      const candidatePage = await preview;
      await candidatePage.waitForURL(/\/exam\/\d+\/\d+/);
      await candidatePage.locator('main').first().waitFor();
      await settled(candidatePage);
      await stop(candidatePage, 'exam-preview');
      await candidatePage.close();

      // The bank: folders, each kind's editor, a new question, the import drawer with a file previewed.
      await page.getByTestId('nav-questions').click();
      const rows = page.getByTestId('bank-table').locator('tr.ant-table-row');
      await rows.first().waitFor();
      await stop(page, 'bank');
      await page.getByTestId('folder-new').click();
      await page.getByTestId('folder-name').waitFor();
      await layer('bank-folder');
      await closeLayer();
      const ids = await page
        .getByTestId('bank-table')
        .locator('[data-testid^="bank-edit-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('bank-edit-', '')));
      expect(ids.length).toBeGreaterThan(10);
      const kinds = new Set<string>();
      // Each kind's editor in the full settings; the new question's editor in every one.
      for (const id of setting.full ? ids : []) {
        await page.getByTestId(`bank-edit-${id}`).click();
        const question = page.getByTestId('question-editor');
        await question.waitFor();
        await settled(page);
        const kind = (await question.getAttribute('data-kind')) ?? id;
        if (!kinds.has(kind)) {
          kinds.add(kind);
          await layer(`question-${kind}`);
        }
        await page.getByTestId('question-close').click();
        await question.waitFor({ state: 'detached' });
      }
      await page.getByTestId('bank-new').click();
      await page.getByTestId('question-editor').waitFor();
      await settled(page);
      await layer('question-new');
      await page.getByTestId('question-close').click();
      await page.getByTestId('question-editor').waitFor({ state: 'detached' });
      await page.goto(`/admin/questions?folder=${tour.folderId}`);
      await page.getByTestId('bank-import').click();
      await page.locator('.ant-drawer input[type=file]').setInputFiles({
        name: 'network.gift',
        mimeType: 'text/plain',
        buffer: Buffer.from(GIFT),
      });
      await page.getByTestId('import-summary').waitFor();
      await layer('bank-import');
      await closeLayer();

      // Candidates: the list, the add dialog, the import drawer with a list previewed.
      await page.getByTestId('nav-candidates').click();
      await page.getByTestId('candidate-table').getByText(TAKERS[0].name).waitFor();
      await stop(page, 'candidates');
      await page.getByTestId('candidate-add').click();
      await page.getByTestId('candidate-phone').waitFor();
      await layer('candidates-add');
      await closeLayer();
      await page.getByTestId('candidate-import-open').click();
      await page.locator('.ant-drawer input[type=file]').setInputFiles({
        name: 'list.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(CANDIDATE_CSV),
      });
      await page.getByTestId('candidate-import-counts').waitFor();
      await layer('candidates-import');
      await closeLayer();

      // Proctoring: the exams, the live grid, the attempt drawer.
      await page.getByTestId('nav-proctoring').click();
      await page.getByTestId(`proctor-exam-${tour.examId}`).waitFor();
      await stop(page, 'proctoring');
      await page.getByTestId(`proctor-exam-${tour.examId}`).click();
      const tile = page.getByTestId(`proctor-tile-${tour.liveAttempt}`);
      await tile.waitFor();
      await stop(page, 'proctoring-grid');
      await tile.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('proctor-attempt').waitFor();
      await page.getByTestId('proctor-timeline').waitFor();
      await settled(page);
      await layer('proctoring-attempt');
      await closeLayer();

      // Grading: the exams, the desk with an answer open, each tab, similarity and a pair.
      await page.getByTestId('nav-grading').click();
      await page.getByTestId(`grading-exam-${tour.examId}`).waitFor();
      await stop(page, 'grading');
      await page.getByTestId(`grading-exam-${tour.examId}`).click();
      await page.getByTestId('grading-answer').waitFor();
      await settled(page);
      await stop(page, 'grading-desk');
      // Who wrote the answer, labelled in words (a phone's and a cap's emoji drew empty boxes).
      const labels = await page.getByTestId('item-candidate').locator('.ant-descriptions-item-label').allTextContents();
      expect(labels).toEqual(setting.lang === 'zh-CN' ? ['考生', '手机号', '学校'] : ['Candidate', 'Phone', 'School']);
      for (const tab of ['reconcile', 'progress', 'setup']) {
        await page.getByTestId(`grading-tab-${tab}`).click();
        await settled(page);
        await stop(page, `grading-${tab}`);
      }
      await page.goto(`/admin/grading/similarity?exam=${tour.examId}&question=${tour.programmingId}`);
      const pair = page.locator('[data-testid^="similarity-open-"]').first();
      await pair.waitFor();
      await stop(page, 'similarity');
      await pair.click();
      await page.locator('.ant-drawer .cm-editor, .ant-drawer pre').first().waitFor();
      await layer('similarity-pair');
      await closeLayer();

      // Results: the ranking and the candidate's report; item analysis.
      await page.goto(`/admin/results/${tour.examId}`);
      const open = page.locator('[data-testid^="results-open-"]').first();
      await open.waitFor();
      await expect
        .poll(() => page.getByTestId('score-chart').locator('svg path, canvas').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await stop(page, 'results');
      await open.click();
      await page.getByTestId('report-questions').waitFor();
      await settled(page);
      await layer('results-report');
      await closeLayer();
      await page.goto(`/admin/analysis/${tour.examId}`);
      await page.getByTestId('analysis-table').waitFor({ timeout: 30_000 });
      await settled(page);
      await stop(page, 'analysis');

      // Staff: accounts, the edit drawer, teams; the account's second factor.
      await page.getByTestId('nav-staff').click();
      await page.getByTestId('staff-table').getByText(ADMIN.phone).waitFor();
      await stop(page, 'staff');
      await page.locator('[data-testid^="staff-edit-"]').first().click();
      await page.getByTestId('staff-edit-form').waitFor();
      await layer('staff-edit');
      await closeLayer();
      await page.getByRole('tab', { name: zh ? '团队' : 'Teams', exact: true }).click();
      await page.getByTestId('teams-table').getByText('校园招聘组').waitFor();
      await stop(page, 'staff-teams');
      await page.getByTestId('account-open').click();
      await page.getByTestId('totp-start').click();
      await page.getByTestId('totp-qr').waitFor();
      await layer('account-totp');
      await closeLayer();

      // Audit with a change expanded; jobs; integrations and their dialogs.
      await page.getByTestId('nav-audit').click();
      const entry = page.getByTestId('audit-table').locator('tr.ant-table-row').first();
      await entry.waitFor();
      await stop(page, 'audit');
      await entry.locator('.ant-table-row-expand-icon').click();
      await page.locator('[data-testid^="audit-diff-"]').first().waitFor();
      await stop(page, 'audit-change');
      await page.getByTestId('nav-jobs').click();
      await page.getByTestId('jobs-table').locator('tr.ant-table-row').first().waitFor();
      await stop(page, 'jobs');
      await page.getByTestId('nav-integrations').click();
      await page.getByTestId('deliveries-table').locator('tr.ant-table-row').first().waitFor();
      await page.getByTestId('tokens-table').getByText('Moka ATS').waitFor();
      await stop(page, 'integrations');
      await page.getByTestId('webhook-add').click();
      await page.getByTestId('webhook-form').waitFor();
      await layer('integrations-webhook');
      await closeLayer();
      await page.getByTestId('token-create').click();
      await page.getByTestId('token-form').waitFor();
      await layer('integrations-token');
      await closeLayer();

      // An address that is no console page.
      await page.goto('/admin/no/such/page');
      await page.locator('main').first().waitFor();
      await stop(page, 'not-found');
    } finally {
      await context.close();
    }
  }
});
