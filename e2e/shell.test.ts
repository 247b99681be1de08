import { formatServerTime } from '@examhall/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser, newPage } from './support/browser.js';
import { startRecorder } from './support/recorder.js';
import { startServer, type TestServer } from './support/server.js';

/** 'YYYY-MM-DD HH:mm' on the server's clock (UTC+8). */
const serverClock = (ms: number) => formatServerTime(ms).slice(0, 16);

describe.runIf(browserAvailable())('application shell', () => {
  let server: TestServer | undefined;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  // Each journey starts a server of its own settings; this stops it whatever the journey did.
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the 404 page for an unknown address', async () => {
    server = await startServer();
    const { context, page } = await newPage(browser, server.baseUrl);
    const res = await page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await page.getByTestId('not-found').waitFor();
    await page.getByRole('heading', { name: '页面不存在' }).waitFor();
    await expect.poll(() => page.title()).toContain('页面不存在');
    expect(new URL(page.url()).pathname).toBe('/no-such-page');

    await page.getByTestId('back-home').click();
    await page.waitForURL(/\/login\?redirect=%2Fexams$/);

    // The page carries its search keywords.
    const keywords = await page.locator('meta[name="keywords"]').getAttribute('content');
    expect(keywords).toContain('在线笔试');
    await context.close();
  });

  it('shows the maintenance notice, which cannot be closed, during the window', async () => {
    const now = Date.now();
    server = await startServer({
      MAINTENANCE_FROM: serverClock(now - 3_600_000),
      MAINTENANCE_TO: serverClock(now + 3_600_000),
      SUPPORT_PHONE: '400-123-4567',
    });
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/login');
    const dialog = page.getByRole('dialog', { name: '系统维护升级公告' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('400-123-4567');
    expect(await dialog.getByRole('button', { name: /close|关闭/i }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await dialog.waitFor();

    // The notice speaks English too, under its English title.
    await page.evaluate(() => localStorage.setItem('examhall.lang', 'en-US'));
    await page.reload();
    await page.getByRole('dialog', { name: 'system maintenance upgrade notice' }).waitFor();
    await context.close();
  });

  it('reports page views and uncaught errors when the addresses are configured', async () => {
    const analytics = await startRecorder('/collect');
    const reports = await startRecorder('/errors');
    server = await startServer({ ANALYTICS_URL: analytics.url, ERROR_REPORT_URL: reports.url });
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      await page.goto('/login');
      const isView =
        (path: string) =>
        (b: unknown): b is { type: string; path: string } =>
          (b as { type?: unknown }).type === 'pageview' && (b as { path?: unknown }).path === path;
      await analytics.waitFor(isView('/login'));
      await page.getByRole('link', { name: '招聘方登录' }).click();
      await page.waitForURL(/\/admin\/login$/);
      await analytics.waitFor(isView('/admin/login'));

      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('e2e uncaught failure');
        });
      });
      const report = await reports.waitFor(
        (b): b is { kind: string; message: string; page: string } =>
          (b as { message?: unknown }).message === 'e2e uncaught failure',
      );
      expect(report.kind).toBe('error');
      expect(report.page).toMatch(/\/admin\/login$/);
    } finally {
      await context.close();
      await analytics.close();
      await reports.close();
    }
  });

  it('shows the loading overlay when a page takes longer than the loader delay to arrive', async () => {
    server = await startServer();
    const { context, page } = await newPage(browser, server.baseUrl, { serviceWorkers: 'block' });
    await page.goto('/login');
    await page.getByTestId('phone-input').waitFor();
    expect(await page.getByTestId('route-loader').count()).toBe(0);
    // Hold the console login page's code back for a second.
    await page.route(/\/assets\/AdminLoginPage-[^/]+\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1_000));
      await route.continue();
    });
    await page.getByRole('link', { name: '招聘方登录' }).click();
    await page.getByTestId('route-loader').waitFor();
    await page.getByTestId('staff-login-form').waitFor();
    expect(await page.getByTestId('route-loader').count()).toBe(0);

    // A change whose page is already loaded is quicker than the delay: the overlay never flashes.
    await page.evaluate(() => {
      const w = window as unknown as { loaderSeen: boolean };
      w.loaderSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="route-loader"]')) w.loaderSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('link', { name: '考生登录' }).click();
    await page.getByTestId('login-form').waitFor();
    expect(await page.evaluate(() => (window as unknown as { loaderSeen: boolean }).loaderSeen)).toBe(false);
    await context.close();
  });
  it("says so when a page's code cannot be fetched, offers a retry, and clears when the candidate moves on", async () => {
    server = await startServer();
    const { context, page } = await newPage(browser, server.baseUrl, { serviceWorkers: 'block' });
    await page.goto('/login');
    await page.getByTestId('phone-input').waitFor();
    await page.route(/\/assets\/AdminLoginPage-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('link', { name: '招聘方登录' }).click();
    const notice = page.getByTestId('route-error');
    await notice.waitFor();
    expect(await notice.getByRole('alert').textContent()).toContain('加载失败');
    await notice.getByRole('button', { name: '重试' }).waitFor();
    await page.goBack();
    await page.getByTestId('phone-input').waitFor();
    expect(await notice.count()).toBe(0);
    await context.close();
  });
});
