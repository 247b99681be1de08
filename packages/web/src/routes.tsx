import { Navigate, type RouteObject } from 'react-router';
import { lazyPage as page } from './shell/appRouter.js';
import { Shell } from './shell/Shell.js';

// The 404 page sits in the candidate frame (its header: the way home and the language switch), as a section of it.
const notFound = page(() => import('./pages/NotFound.js').then((m) => ({ default: m.NotFoundInFrame })));

/** Every route of the app. */
export const routes: RouteObject[] = [
  {
    Component: Shell,
    children: [
      { index: true, element: <Navigate to="/exams" replace /> },
      // The exam page has its own header (name, timer, submit), so it sits outside the candidate frame; it is built
      // with the small kit in ui/, so it loads no Ant Design code.
      { path: 'exam/:id/:anid/answer', Component: page(() => import('./pages/exam/ExamPage.js')) },
      {
        // Every other page is built with Ant Design: its theme, language and App load with them.
        Component: page(() => import('./shell/AntdScope.js')),
        children: [
          {
            Component: page(() => import('./pages/candidate/CandidateFrame.js')),
            children: [
              { path: 'login', Component: page(() => import('./pages/candidate/LoginPage.js')) },
              { path: 'exams', Component: page(() => import('./pages/candidate/ExamsPage.js')) },
              { path: 'profile', Component: page(() => import('./pages/candidate/ProfilePage.js')) },
              { path: 'exam/:id/:anid', Component: page(() => import('./pages/exam/EntryPage.js')) },
              { path: 'exam/:id/:anid/monitor', Component: page(() => import('./pages/exam/MonitorPage.js')) },
              { path: 'exam/:id/:anid/result', Component: page(() => import('./pages/exam/ResultPage.js')) },
              { path: '404', Component: notFound },
              { path: '*', Component: notFound },
            ],
          },
          // The phone page (second view) is opened on a phone from the QR code: a mobile layout, no candidate frame.
          { path: 'phone', Component: page(() => import('./pages/phone/PhonePage.js')) },
          { path: 'admin/login', Component: page(() => import('./pages/admin/AdminLoginPage.js')) },
          // The console's routes load with it (pages/admin/consoleAreas.tsx, one entry per area).
          { path: 'admin/*', Component: page(() => import('./pages/admin/Console.js')) },
        ],
      },
    ],
  },
];
