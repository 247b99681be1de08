import type { RouteObject } from 'react-router';
import { lazyPage as page, useNestedRoutes } from '../../shell/appRouter.js';
import NotFound from '../NotFound.js';
import { CONSOLE_AREAS } from './consoleAreas.js';

/** The console's routes under /admin: the frame, its home, every area's pages, and the placeholder for the rest. */
export const CONSOLE_ROUTES: RouteObject[] = [
  {
    Component: page(() => import('./AdminFrame.js')),
    children: [
      { index: true, Component: page(() => import('./home/HomePage.js')) },
      ...CONSOLE_AREAS.flatMap((area) => [
        ...(area.page ? [{ path: area.path, Component: area.page }] : []),
        ...Object.entries(area.subpages ?? {}).map(([path, Component]) => ({ path, Component })),
      ]),
      { path: ':area', Component: page(() => import('./AreaPage.js')) },
    ],
  },
];

/**
 * The console (every address under /admin but its login): its routes come with it, so the app's entry carries none
 * of them. An address that is none of its pages gets the app's 404 page, outside the console's frame.
 */
export default function Console() {
  return useNestedRoutes(CONSOLE_ROUTES, '/admin') ?? <NotFound />;
}
