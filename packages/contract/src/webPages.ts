/**
 * The web app's pages as React Router patterns (`:name` stands for one path segment). The router declares
 * exactly these; the server serves the app for any other path too, with status 404, and the app shows its
 * 404 page.
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
  '/admin/staff',
  '/admin/audit',
  '/admin/questions',
  '/admin/exams',
  '/admin/exams/:examId',
  '/admin/proctoring',
  '/admin/proctoring/:examId',
  '/admin/grading',
  '/admin/grading/:examId',
  '/admin/jobs',
  '/admin/candidates',
  '/admin/grading/similarity',
  '/admin/results/:examId',
  '/admin/integrations',
  '/admin/analysis/:examId',
  '/admin/:area',
] as const;

const patterns = WEB_PAGES.map((p) => p.split('/').filter(Boolean));

/** True when `pathname` (no query) is one of the app's pages; a trailing slash is ignored. */
export function isWebPage(pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  return patterns.some(
    (pattern) => pattern.length === parts.length && pattern.every((seg, i) => seg.startsWith(':') || seg === parts[i]),
  );
}
