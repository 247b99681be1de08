import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { browserAvailable, newPage, takeCspViolations } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { DEMO_PHONE } from './support/server.js';

const DEMO_EXAM = /Examhall demo exam|演示笔试/;

describe.runIf(browserAvailable())('candidate login journey', () => {
  const j = useJourney();

  it('logs in by SMS code, lists the demo exam, switches language, survives a reload and logs out', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    const apiRequests: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) apiRequests.push(r);
    });

    // Logged out, the home page leads to the login with the way back in `redirect`.
    await page.goto('/');
    await page.waitForURL(/\/login\?redirect=%2Fexams$/);
    // The address changes at once; the login page shows (and names the tab) once its code has loaded.
    await page.getByTestId('phone-input').waitFor();
    await expect.poll(() => page.title()).toContain('登录');

    // A malformed number is caught before any code is sent.
    await page.getByTestId('phone-input').fill('12345');
    await page.getByTestId('send-code').click();
    await page.getByText('请输入有效的手机号').waitFor();
    expect(j.server.sms.messages()).toHaveLength(0);

    await page.getByTestId('phone-input').fill(DEMO_PHONE);
    await page.getByTestId('send-code').click();
    const code = await j.server.sms.waitForCode(DEMO_PHONE);
    expect(code).toMatch(/^\d{6}$/);
    // The button counts down and cannot be pressed again meanwhile.
    await expect.poll(() => page.getByTestId('send-code').textContent()).toMatch(/\d+ 秒后重新获取/);
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true);

    // A wrong code says so in the page's language and keeps the candidate on the page.
    const wrong = code.replace(/^./, (d) => String((Number(d) + 1) % 10));
    await page.getByTestId('code-input').fill(wrong);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').filter({ hasText: '验证码错误，还可以再试 4 次' }).waitFor();
    expect(page.url()).toContain('/login');

    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/exams$/);
    await page.getByTestId('exam-name').filter({ hasText: DEMO_EXAM }).first().waitFor();
    expect(await page.getByTestId('user-phone').textContent()).toContain(DEMO_PHONE);
    await expect.poll(() => page.title()).toContain('我的笔试');

    // The token rides on every call as `auth`, with the page as `referer`.
    const cookies = await context.cookies();
    const auth = cookies.find((c) => c.name === 'auth')?.value;
    expect(auth).toBeTruthy();
    const examIndex = apiRequests.find((r) => new URL(r.url()).pathname === '/api/exam/index');
    expect(examIndex).toBeDefined();
    const params = new URL(examIndex!.url()).searchParams;
    expect(params.get('auth')).toBe(auth);
    expect(params.get('referer')).toMatch(/\/exams$/);

    // English, remembered across a reload, which also keeps the session.
    await page.getByTestId('lang-switch').click();
    await page.getByRole('heading', { name: 'My exams' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
    await page.reload();
    await page.getByRole('heading', { name: 'My exams' }).waitFor();
    await page.getByTestId('exam-name').filter({ hasText: DEMO_EXAM }).first().waitFor();
    expect(page.url()).toMatch(/\/exams$/);
    await expect.poll(() => page.title()).toContain('My exams');

    await page.getByTestId('logout').click();
    await page.waitForURL(/\/login$/);
    expect((await context.cookies()).find((c) => c.name === 'auth')).toBeUndefined();
    await page.goto('/exams');
    await page.waitForURL(/\/login\?redirect=%2Fexams$/);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });

  it('removes a token the server no longer accepts and asks for a login', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    const host = new URL(j.server.baseUrl).hostname;
    await context.addCookies([{ name: 'auth', value: 'revoked-or-forged', domain: host, path: '/' }]);
    await page.goto('/exams');
    await page.waitForURL(/\/login\?redirect=%2Fexams$/);
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'auth')).toBe(false);
    await context.close();
  });

  it('can be done with the keyboard alone, and an invitation-less candidate sees the empty state', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    const phone = '13912345678';
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');

    await page.goto('/login');
    // The fields are reachable by their visible labels.
    await page.getByLabel('手机号', { exact: true }).focus();
    await page.keyboard.type(phone);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('code-input');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('send-code');
    await page.keyboard.press('Enter');
    const code = await j.server.sms.waitForCode(phone);
    // Once the code is on its way, focus waits in the code field.
    await expect.poll(focused).toBe('code-input');
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/exams$/);
    await page.getByTestId('exams-empty').waitFor();
    await context.close();
  });

  it('runs under a Content-Security-Policy that refuses inline script, and notices a violation', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    const res = await page.goto('/login');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByTestId('phone-input').waitFor();
    // What an injected script would try: it is refused, and the journeys' listener hears of it.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.appendChild(s);
    });
    await expect.poll(() => page.evaluate(() => 'x')).toBe('x');
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await expect.poll(() => takeCspViolations().join('\n')).toMatch(/inline script[\s\S]*Content Security Policy/);
    await context.close();
  });
});
