/**
 * The console's pages below an area's own, under /admin (`:name` stands for one path segment). An area's own page
 * (`/admin/<area>`) is one segment, which `/admin/:area` covers, so adding an area needs nothing here; the web's
 * console table (web/src/pages/admin/consoleAreas.tsx) gives each page below one its component, by these names.
 */
export const CONSOLE_SUBPAGES = [
  'exams/:examId',
  'proctoring/:examId',
  'grading/:examId',
  'grading/similarity',
  'results/:examId',
  'analysis/:examId',
] as const;

/** A console page below an area's own, as `CONSOLE_SUBPAGES` names it. */
export type ConsoleSubpage = (typeof CONSOLE_SUBPAGES)[number];

/**
 * The web app's pages as React Router patterns. The router declares exactly these, and each console area's own
 * page; the server serves the app for any other path too, with status 404, and the app shows its 404 page.
 */
export const WEB_PAGES = [
  '/',
  '/login',
  '/exams',
  '/profile',
  '/exam/:id/:anid',
  '/exam/:id/:anid/monitor',
  '/exam/:id/:anid/result',
  '/exam/:id/:anid/answer',
  '/phone',
  '/admin/login',
  '/admin',
  '/admin/:area',
  ...CONSOLE_SUBPAGES.map((p) => `/admin/${p}` as const),
] as const;

const patterns = WEB_PAGES.map((p) => p.split('/').filter(Boolean));

/** True when `pathname` (no query) is one of the app's pages; a trailing slash is ignored. */
export function isWebPage(pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  return patterns.some(
    (pattern) => pattern.length === parts.length && pattern.every((seg, i) => seg.startsWith(':') || seg === parts[i]),
  );
}
