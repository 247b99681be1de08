import { isWebPage, WEB_PAGES } from '@examhall/contract';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES } from './pages/admin/Console.js';
import { CONSOLE_AREAS } from './pages/admin/consoleAreas.js';
import { routes } from './routes.js';

/** Every page path the router declares (index routes and pages, not the layouts or the catch-all 404). */
function pagePaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((r) => {
    const here = r.path ? `${parent.replace(/\/$/, '')}/${r.path}` : parent;
    const own = r.index || (r.path && !r.children) ? [here || '/'] : [];
    return [...own, ...(r.children ? pagePaths(r.children, here) : [])];
  });
}

describe('the web pages the server knows', () => {
  it("are exactly the pages of the router and the console's (so a real page never gets a 404 status)", () => {
    const declared = [
      ...pagePaths(routes).filter((p) => p !== '/404' && p !== '/*' && p !== '/admin/*'),
      ...pagePaths(CONSOLE_ROUTES, '/admin'),
    ];
    // An area's own page is one segment under /admin, which `/admin/:area` stands for.
    const areaPages = CONSOLE_AREAS.filter((a) => a.page).map((a) => `/admin/${a.path}`);
    expect(new Set(declared)).toEqual(new Set([...WEB_PAGES, ...areaPages]));
    expect(declared).toHaveLength(new Set(declared).size);
  });

  it('match page addresses and nothing else', () => {
    for (const p of ['/', '/exams', '/exams/', '/exam/3/7', '/exam/3/7/answer', '/admin', '/admin/proctoring/2'])
      expect(isWebPage(p), p).toBe(true);
    for (const p of ['/nope', '/exam/3', '/exam/3/7/other', '/admin/proctoring/2/x', '/404', '/phone/x'])
      expect(isWebPage(p), p).toBe(false);
  });
});
