import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { chooseLanguage, setCode } from './support/code.js';
import { useJourney } from './support/journey.js';

const CPP_SUM =
  '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';
const PY_WRONG = 'a, b = map(int, input().split())\nprint(a - b)\n';
const PY_REVERSE = 'print(input()[::-1])\n';
/** The demo's hidden cases: none of these may reach the browser. */
const HIDDEN = ['3 4', '-5 5', '1000000000 1000000000', '2000000000'];

/** Every /api response the page received, with the body of the request that caused it. */
interface Seen {
  url: string;
  request: string | null;
  body: string;
}

function recordApi(page: Page): () => Promise<Seen[]> {
  const pending: Promise<Seen | null>[] = [];
  page.on('response', (res: Response) => {
    if (!new URL(res.url()).pathname.startsWith('/api/')) return;
    // The live event stream never ends, so its body never arrives; it carries warnings and phase changes only.
    if (res.headers()['content-type']?.startsWith('text/event-stream')) return;
    pending.push(
      res.text().then(
        (body) => ({ url: res.url(), request: res.request().postData(), body }),
        // A response the browser dropped (a redirect, a closed page) has no body to leak.
        () => null,
      ),
    );
  });
  return async () => (await Promise.all(pending)).filter((s): s is Seen => s !== null);
}

/** Waits for the finished outcome of a run or submit and answers its verdict element. */
async function outcome(question: Locator, mode: 'run' | 'submit', verdict: string) {
  const result = question.locator(`[data-testid="judge-outcome"][data-mode="${mode}"]`);
  await result.locator(`[data-testid="judge-verdict"][data-verdict="${verdict}"]`).waitFor({ timeout: 30_000 });
  return result;
}

describe.runIf(browserAvailable())('running and submitting code in the exam', () => {
  const j = useJourney();
  // One signed-in candidate for both journeys: the server allows one SMS code a minute per phone.
  let session: (Awaited<ReturnType<typeof newPage>> & { seen: () => Promise<Seen[]> }) | undefined;
  async function inExam() {
    if (!session) {
      // page.route cannot see requests a service worker makes, so this page runs without one.
      const opened = await newPage(j.browser, j.server.baseUrl, { serviceWorkers: 'block' });
      session = { ...opened, seen: recordApi(opened.page) };
      await loginAs(session.page, j.server);
      await enterDemoExam(session.page);
    }
    return session;
  }
  afterAll(async () => session?.context.close());

  it('runs C++ on the sample, submits it (AC on every hidden case), submits wrong Python (WA), runs custom input on programming Q&A, and never sees a hidden case', async () => {
    const { context, page, consoleErrors, seen } = await inExam();
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);
    const order = await api<{ subject_order: { id: number; type: number }[] }>(
      j.server,
      auth,
      'GET',
      '/subject/order-list',
      { exam_id: examId },
    );
    const progId = order.subject_order.find((e) => e.type === 6)!.id;
    const qaId = order.subject_order.find((e) => e.type === 8)!.id;

    // The programming question: C++, a correct A+B, run on the sample.
    await page.locator(`[data-testid="card-item"][data-id="${progId}"]`).click();
    const prog = page.locator(`[data-testid="question"][data-id="${progId}"]`);
    await prog.getByTestId('code-samples').waitFor();
    await prog.getByTestId('judge-shortcut').filter({ hasText: 'Ctrl+Enter' }).waitFor();
    await chooseLanguage(page, prog, /^C\+\+$/);
    await setCode(page, prog, CPP_SUM);
    await prog.getByTestId('judge-run').click();
    // Both buttons wait while the job runs.
    await expect.poll(() => prog.getByTestId('judge-submit').isDisabled()).toBe(true);
    let result = await outcome(prog, 'run', 'AC');
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('通过');
    expect(await result.getByTestId('judge-case').count()).toBe(1);
    expect((await result.getByTestId('judge-output').textContent())?.trim()).toBe('3');
    expect((await result.getByTestId('judge-expected').textContent())?.trim()).toBe('3');
    await expect.poll(() => prog.getByTestId('judge-submit').isDisabled()).toBe(false);

    // Submit: the three hidden cases, each with its verdict, time and memory.
    await prog.getByTestId('judge-submit').click();
    result = await outcome(prog, 'submit', 'AC');
    const cases = result.getByTestId('judge-case');
    expect(await cases.count()).toBe(3);
    for (let i = 0; i < 3; i++) expect(await cases.nth(i).getAttribute('data-verdict')).toBe('AC');
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('3 / 3');
    expect(await result.getByTestId('judge-output').count()).toBe(0);
    // The code was saved as the answer before it was judged.
    const saved = await api<{ answer: { value: { language: string; code: string } } | null }>(
      j.server,
      auth,
      'GET',
      '/subject/show-new',
      { subject_id: progId, exam_id: examId },
    );
    expect(saved.answer?.value).toMatchObject({ language: 'cpp', code: CPP_SUM });

    // Python with a wrong program: Ctrl+Enter in the editor runs the sample, then the submit fails every case.
    await chooseLanguage(page, prog, /^Python$/);
    await setCode(page, prog, PY_WRONG);
    await page.keyboard.press('Control+Enter');
    result = await outcome(prog, 'run', 'WA');
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('答案错误');
    expect((await result.getByTestId('judge-output').textContent())?.trim()).toBe('-1');
    expect((await result.getByTestId('judge-expected').textContent())?.trim()).toBe('3');
    await prog.getByTestId('judge-submit').click();
    result = await outcome(prog, 'submit', 'WA');
    expect(await result.getByTestId('judge-case').count()).toBe(3);
    expect(await result.locator('[data-testid="judge-case"][data-verdict="WA"]').count()).toBe(3);
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('0 / 3');

    // Programming Q&A: no submit, no samples; a custom input runs with Ctrl+Enter in the input box.
    await page.locator(`[data-testid="card-item"][data-id="${qaId}"]`).click();
    const qa = page.locator(`[data-testid="question"][data-id="${qaId}"]`);
    await qa.getByTestId('judge-panel').waitFor();
    expect(await qa.getByTestId('judge-submit').count()).toBe(0);
    expect(await qa.getByTestId('judge-run').count()).toBe(0);
    await chooseLanguage(page, qa, /^Python$/);
    await setCode(page, qa, PY_REVERSE);
    await qa.getByTestId('judge-input').fill('level up');
    await qa.getByTestId('judge-input').press('Control+Enter');
    result = qa.locator('[data-testid="judge-outcome"][data-mode="run"][data-custom="1"]');
    await result.locator('[data-testid="judge-verdict"][data-verdict="AC"]').waitFor({ timeout: 30_000 });
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('运行完成');
    expect((await result.getByTestId('judge-output').textContent())?.trim()).toBe('pu level');
    expect(await result.getByTestId('judge-expected').count()).toBe(0);

    // Back on the programming question, its last result is still there.
    await page.locator(`[data-testid="card-item"][data-id="${progId}"]`).click();
    await outcome(page.locator(`[data-testid="question"][data-id="${progId}"]`), 'submit', 'WA');

    // After a reload the server's record stands in for the page's memory: the newest of each question's
    // run and submit comes back, labelled as it was started.
    await page.reload();
    await page.getByTestId('question').first().waitFor();
    await page.locator(`[data-testid="card-item"][data-id="${progId}"]`).click();
    result = await outcome(page.locator(`[data-testid="question"][data-id="${progId}"]`), 'submit', 'WA');
    expect(await result.locator('[data-testid="judge-case"][data-verdict="WA"]').count()).toBe(3);
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('0 / 3');
    expect(await result.getByTestId('judge-output').count()).toBe(0);
    expect(await result.getByText('Python', { exact: true }).count()).toBe(1);
    await page.locator(`[data-testid="card-item"][data-id="${qaId}"]`).click();
    result = page.locator(`[data-testid="question"][data-id="${qaId}"] [data-testid="judge-outcome"][data-mode="run"]`);
    await result.locator('[data-testid="judge-verdict"][data-verdict="AC"]').waitFor();
    expect(await result.getAttribute('data-custom')).toBe('1');
    expect(await result.getByTestId('judge-verdict').textContent()).toContain('运行完成');
    expect((await result.getByTestId('judge-output').textContent())?.trim()).toBe('pu level');
    expect(await result.getByTestId('judge-expected').count()).toBe(0);
    // The input the run used is back in its box.
    expect(
      await page.locator(`[data-testid="question"][data-id="${qaId}"] [data-testid="judge-input"]`).inputValue(),
    ).toBe('level up');

    // Nothing the browser received holds a hidden case, and no submit's status carries an output.
    const responses = await seen();
    const latest = responses.filter((r) => r.url.includes('/api/answer/judge-latest?'));
    expect(latest.length).toBeGreaterThanOrEqual(2);
    for (const r of latest) {
      const data = (JSON.parse(r.body) as { data: { submit: unknown } }).data;
      expect(JSON.stringify(data.submit), r.url).not.toContain('"output"');
    }
    const judged = responses.filter((r) => /\/api\/answer\/judge(-status)?\?/.test(r.url));
    expect(judged.length).toBeGreaterThanOrEqual(5);
    for (const r of responses) for (const secret of HIDDEN) expect(r.body, r.url).not.toContain(secret);
    const submitJobs = new Set(
      judged
        .filter((r) => r.request !== null && (JSON.parse(r.request) as { mode?: string }).mode === 'submit')
        .map((r) => (JSON.parse(r.body) as { data: { job_id: string } }).data.job_id),
    );
    expect(submitJobs.size).toBe(2);
    let submitStatuses = 0;
    for (const r of judged) {
      const data = (JSON.parse(r.body) as { data: { job_id: string; total: number } }).data;
      if (!submitJobs.has(data.job_id)) continue;
      submitStatuses++;
      expect(data.total).toBe(3);
      expect(r.body, r.url).not.toContain('"output"');
    }
    expect(submitStatuses).toBeGreaterThanOrEqual(4);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  }, 180_000);

  it("says why in the page's language when submits are rate-limited or a toolchain is missing", async () => {
    const { context, page } = await inExam();
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);
    const order = await api<{ subject_order: { id: number; type: number }[] }>(
      j.server,
      auth,
      'GET',
      '/subject/order-list',
      { exam_id: examId },
    );
    const progId = order.subject_order.find((e) => e.type === 6)!.id;
    await page.locator(`[data-testid="card-item"][data-id="${progId}"]`).click();
    const prog = page.locator(`[data-testid="question"][data-id="${progId}"]`);
    await prog.getByTestId('code-samples').waitFor();

    // Submits up to the limit straight from the test, then one from the page: the server refuses it.
    const error = prog.getByTestId('judge-error');
    for (let round = 0; round < 2 && !(await error.isVisible()); round++) {
      // A fixed window can end between the last refusal here and the page's submit; then one more round.
      for (let i = 0; i < 20; i++) {
        const refused = await api(j.server, auth, 'POST', '/answer/judge', {
          exam_id: examId,
          subject_id: progId,
          language: 'python',
          code: 'print(0)',
          mode: 'submit',
          client_id: crypto.randomUUID(),
        }).then(
          () => false,
          (e: unknown) => /429 rate_limited/.test(String(e)),
        );
        if (refused) break;
      }
      await prog.getByTestId('judge-submit').click();
      await error.or(prog.getByTestId('judge-verdict')).waitFor({ timeout: 30_000 });
    }
    expect(await error.getAttribute('data-code')).toBe('rate_limited');
    expect(await error.textContent()).toContain('请求过于频繁，请稍后再试');
    // The buttons are usable again after a refusal.
    expect(await prog.getByTestId('judge-run').isDisabled()).toBe(false);

    // A language whose toolchain this host lacks (Java is installed here, so the answer is the server's
    // recorded one): the page says so, with the server's detail naming the language.
    await page.route('**/api/answer/judge?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          status: 'error',
          code: 'language_unavailable',
          msg: 'java: toolchain not installed on this host',
          data: null,
        }),
      }),
    );
    await chooseLanguage(page, prog, /^Java$/);
    await prog.getByTestId('judge-run').click();
    await error.filter({ hasText: 'java: toolchain not installed on this host' }).waitFor();
    expect(await error.getAttribute('data-code')).toBe('language_unavailable');
  }, 180_000);
});
