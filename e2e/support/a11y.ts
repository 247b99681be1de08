/**
 * Accessibility scans with axe-core, injected into the page from the npm package (nothing downloaded).
 * A scan checks the page as it is now against WCAG 2.1 A and AA and answers the rules it breaks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/** One broken rule, with where it is broken. */
export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe on the page (WCAG 2.0/2.1 A and AA rules) and answers what it found. `within` narrows the scan to
 * one element (a drawer open over the page, whose mask dims what lies below it on purpose).
 */
export async function scanA11y(page: Page, within?: string): Promise<A11yViolation[]> {
  // Evaluated rather than added as a script tag: the page's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
  // Colours are checked as they end up, not halfway through a transition (a button just enabled).
  await animationsDone(page);
  return page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const results = await axe.run(selector ? { include: [selector] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, within);
}

/**
 * Waits until every finite animation and transition has ended (a drawer sliding in, a colour fading); endless ones
 * (a live status dot) are left running.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** A readable list of violations for a failed expectation. */
export function describeViolations(where: string, violations: readonly A11yViolation[]): string {
  return violations
    .map((v) => `${where}: ${v.id} (${v.impact ?? 'n/a'}) ${v.help}\n    ${v.targets.slice(0, 5).join('\n    ')}`)
    .join('\n');
}
