/**
 * One stop of a tour through the pages: everything a page must not show or be, checked the same way on every page,
 * with a screenshot under e2e/screenshots/ for a person to look at.
 *
 * A stop fails on: a text node in the other language or a raw key, enum value or epoch number (`strayTexts`), a
 * table or drawer wider than its room, a page wider than the window, an id two elements share, a landmark nested in
 * another of its kind, and any axe violation (WCAG 2.1 A and AA).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { animationsDone, describeViolations, scanA11y } from './a11y.js';
import { strayTexts } from './words.js';

/** Where screenshots go (ignored by git): one folder per language and window size. */
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** A language and a window size a tour runs in. */
export interface TourSetting {
  lang: 'zh-CN' | 'en-US';
  viewport: { width: number; height: number };
  /**
   * Whether a tour opens every variant of a view (each question kind's editor) here, or one of each view: the two
   * full settings between them show every variant in both languages and at both sizes.
   */
  full: boolean;
}

/** The settings every tour runs in: each language at both window sizes. */
export const TOUR_SETTINGS: readonly TourSetting[] = [
  { lang: 'zh-CN', viewport: { width: 1440, height: 900 }, full: true },
  { lang: 'en-US', viewport: { width: 1280, height: 720 }, full: true },
  { lang: 'zh-CN', viewport: { width: 1280, height: 720 }, full: false },
  { lang: 'en-US', viewport: { width: 1440, height: 900 }, full: false },
];

/** A setting's name, as its screenshot folder and in test titles. */
export function settingName(s: TourSetting): string {
  return `${s.lang}-${s.viewport.width}x${s.viewport.height}`;
}

/** Ids that more than one element of the page has. */
export function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
}

/** Landmarks inside another landmark of their kind (a <main> in a <main>, a nav in a nav), described. */
export function nestedLandmarks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const kinds: Record<string, string> = {
      main: 'main, [role="main"]',
      navigation: 'nav, [role="navigation"]',
      complementary: 'aside, [role="complementary"]',
      banner: 'body > header, [role="banner"]',
      contentinfo: 'body > footer, [role="contentinfo"]',
    };
    const out: string[] = [];
    for (const [kind, selector] of Object.entries(kinds)) {
      for (const el of Array.from(document.querySelectorAll(selector))) {
        if (el.parentElement?.closest(selector)) out.push(`${kind} in ${kind}: <${el.tagName.toLowerCase()}>`);
      }
    }
    const mains = document.querySelectorAll('main, [role="main"]').length;
    if (mains > 1) out.push(`${mains} main landmarks`);
    return out;
  });
}

/**
 * What is wider than its room: the page wider than the window, a drawer or dialog past the window's edge or
 * scrolling sideways, a table past the window's edge or wider than its own box (its last columns off-screen).
 */
export function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = window.innerWidth;
    const name = (el: Element) => {
      const id = el.closest('[data-testid]')?.getAttribute('data-testid');
      return id ? `[data-testid=${id}]` : `.${Array.from(el.classList).join('.')}`;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    if (document.documentElement.scrollWidth > width + 1) {
      out.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    }
    for (const el of Array.from(document.querySelectorAll('.ant-drawer-content-wrapper, .ant-modal'))) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 || r.left < -1)
        out.push(`${name(el)} reaches past the window (${Math.round(r.left)} to ${Math.round(r.right)} px)`);
    }
    for (const el of Array.from(document.querySelectorAll('.ant-drawer-body, .ant-modal-body'))) {
      if (visible(el) && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`);
      }
    }
    for (const el of Array.from(document.querySelectorAll('.ant-table-wrapper'))) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > width + 1) out.push(`${name(el)} reaches past the window (to ${Math.round(r.right)} px)`);
      const box = el.querySelector('.ant-table-content, .ant-table-body');
      if (box && box.scrollWidth > box.clientWidth + 1) {
        out.push(`${name(el)} is wider than its box (${box.scrollWidth} px in ${box.clientWidth} px)`);
      }
    }
    return out;
  });
}

/** How one tour names its stops and where it keeps their screenshots. */
export interface PageAuditor {
  /**
   * Checks the page as it is now (or only `within`, a drawer or dialog over it, for the text and axe checks),
   * saves its screenshot, and keeps what is wrong; `data` lists texts people entered, shown as written.
   */
  stop(page: Page, name: string, options?: { within?: string; data?: readonly string[] }): Promise<void>;
  /** Everything found at every stop so far, one line each. */
  readonly found: readonly string[];
}

/** An auditor for one tour in one setting; each stop's screenshot is numbered in the order of the stops. */
export function pageAuditor(setting: TourSetting, tour: string, data: readonly string[] = []): PageAuditor {
  const dir = join(SCREENSHOTS, settingName(setting));
  mkdirSync(dir, { recursive: true });
  // The tour's screenshots of an earlier run go: stops renamed or renumbered since would be left among the new ones.
  for (const file of readdirSync(dir)) if (file.startsWith(`${tour}-`)) rmSync(join(dir, file));
  const found: string[] = [];
  let n = 0;
  return {
    found,
    async stop(page, name, options = {}) {
      n += 1;
      const where = `${tour} ${settingName(setting)} ${name}`;
      // The pointer rests where nothing is hovered: colours are judged at rest, not under the button just clicked.
      await page.mouse.move(0, 0);
      // Measured where things end up: a drawer sliding in is past the window's edge on its way.
      await animationsDone(page);
      const root = page.locator(options.within ?? 'body').first();
      const words = await strayTexts(root, setting.lang, [...data, ...(options.data ?? [])]);
      for (const w of words) found.push(`${where}: stray text ${JSON.stringify(w)}`);
      for (const id of await duplicateIds(page)) found.push(`${where}: duplicate id ${JSON.stringify(id)}`);
      for (const l of await nestedLandmarks(page)) found.push(`${where}: ${l}`);
      for (const o of await overflows(page)) found.push(`${where}: ${o}`);
      const violations = await scanA11y(page, options.within);
      if (violations.length > 0) found.push(describeViolations(where, violations));
      const file = `${tour}-${String(n).padStart(2, '0')}-${name.replace(/[^\w\u4e00-\u9fff-]+/g, '-')}.png`;
      await page.screenshot({ path: join(dir, file) });
    },
  };
}
