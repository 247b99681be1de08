import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The system Chromium (Debian package `chromium`). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--auto-select-desktop-capture-source=Entire screen',
];

/**
 * Whether the journeys can run here. Without Chromium they fail in CI, and outside CI they are
 * skipped with a warning so a developer without the browser can still run everything else.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `${CHROMIUM_PATH} is missing: install the Debian package 'chromium' to run the browser journeys`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n!!!!!!!!!!\n!!! SKIPPING BROWSER JOURNEYS: ${message}\n!!!!!!!!!!\n`);
  return false;
}

/**
 * Launches headless Chromium with fake camera, microphone and screen capture; `extraArgs` adds flags
 * such as `--use-file-for-fake-video-capture=<file>` (a face video instead of the test pattern).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...ARGS, ...extraArgs],
  });
  // Every context of the browser, including those a journey opens itself (a phone), reports CSP violations.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    watchCsp(context);
    return context;
  };
  return browser;
}

const cspViolations: string[] = [];

/**
 * Chromium reports a blocked script, style, image, connection or frame on the console: "Refused to ... because it
 * violates the following Content Security Policy directive", or in newer releases "Executing inline script
 * violates the following Content Security Policy directive".
 */
function watchCsp(context: BrowserContext): void {
  context.on('console', (m) => {
    const text = m.text();
    if (/Content Security Policy/i.test(text)) cspViolations.push(`${m.location().url}: ${text}`);
  });
}

/**
 * The CSP violations reported since the last call (and forgets them). e2e/support/csp.ts fails each journey that
 * has any, so a policy that breaks a page fails CI.
 */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/**
 * A fresh context (own cookies and storage) and page; browser console errors are collected for
 * assertions. `serviceWorkers: 'block'` is for journeys that delay requests with page.route, which
 * cannot see what the app's service worker answers from its cache.
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  options: {
    serviceWorkers?: 'allow' | 'block';
    viewport?: { width: number; height: number };
    /** The browser's language, which the app starts in (Chinese unless set). */
    locale?: 'zh-CN' | 'en-US';
  } = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'zh-CN',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
    // E2E_CONSOLE=1 shows everything the page logs, to follow a journey that fails.
    if (process.env.E2E_CONSOLE) console.log(`[page ${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { context, page, consoleErrors };
}
