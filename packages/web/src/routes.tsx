import { redirect, type RouteObject } from 'react-router';
import { HydrateFallback } from './shell/RouteLoader.js';
import { Shell } from './shell/Shell.js';

/** A lazily loaded page: its module's default export becomes the route's component. */
function page(load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

const notFound = page(() => import('./pages/NotFound.js'));

/** Every route of the app. */
export const routes: RouteObject[] = [
  {
    Component: Shell,
    HydrateFallback,
    children: [
      { index: true, loader: () => redirect('/exams') },
      // The exam page has its own header (name, timer, submit), so it sits outside the candidate frame; it is built
      // with the small kit in ui/, so it loads no Ant Design code.
      { path: 'exam/:id/:anid/answer', lazy: page(() => import('./pages/exam/ExamPage.js')) },
      {
        // Every other page is built with Ant Design: its theme, language and App load with them.
        lazy: page(() => import('./shell/AntdScope.js')),
        children: [
          {
            lazy: page(() => import('./pages/candidate/CandidateFrame.js')),
            children: [
              { path: 'login', lazy: page(() => import('./pages/candidate/LoginPage.js')) },
              { path: 'exams', lazy: page(() => import('./pages/candidate/ExamsPage.js')) },
              { path: 'profile', lazy: page(() => import('./pages/candidate/ProfilePage.js')) },
              { path: 'exam/:id/:anid', lazy: page(() => import('./pages/exam/EntryPage.js')) },
              { path: 'exam/:id/:anid/monitor', lazy: page(() => import('./pages/exam/MonitorPage.js')) },
              { path: 'exam/:id/:anid/result', lazy: page(() => import('./pages/exam/ResultPage.js')) },
            ],
          },
          // The phone page (second view) is opened on a phone from the QR code: a mobile layout, no candidate frame.
          { path: 'phone', lazy: page(() => import('./pages/phone/PhonePage.js')) },
          { path: 'admin/login', lazy: page(() => import('./pages/admin/AdminLoginPage.js')) },
          {
            path: 'admin',
            lazy: page(() => import('./pages/admin/AdminFrame.js')),
            children: [
              { index: true, lazy: page(() => import('./pages/admin/home/HomePage.js')) },
              { path: 'staff', lazy: page(() => import('./pages/admin/staff/StaffPage.js')) },
              { path: 'audit', lazy: page(() => import('./pages/admin/audit/AuditPage.js')) },
              { path: 'jobs', lazy: page(() => import('./pages/admin/jobs/JobsPage.js')) },
              { path: 'integrations', lazy: page(() => import('./pages/admin/integrations/IntegrationsPage.js')) },
              { path: 'candidates', lazy: page(() => import('./pages/admin/candidates/CandidatesPage.js')) },
              { path: 'questions', lazy: page(() => import('./pages/admin/bank/BankPage.js')) },
              { path: 'exams', lazy: page(() => import('./pages/admin/exams/ExamsPage.js')) },
              { path: 'exams/:examId', lazy: page(() => import('./pages/admin/exams/ExamEditorPage.js')) },
              { path: 'proctoring', lazy: page(() => import('./pages/admin/proctoring/ProctorExamsPage.js')) },
              { path: 'proctoring/:examId', lazy: page(() => import('./pages/admin/proctoring/ProctorGridPage.js')) },
              { path: 'grading', lazy: page(() => import('./pages/admin/grading/GradingExamsPage.js')) },
              { path: 'grading/:examId', lazy: page(() => import('./pages/admin/grading/GradingExamPage.js')) },
              { path: 'results/:examId', lazy: page(() => import('./pages/admin/results/ResultsPage.js')) },
              {
                path: 'grading/similarity',
                lazy: page(() => import('./pages/admin/grading/similarity/SimilarityPage.js')),
              },
              { path: 'analysis/:examId', lazy: page(() => import('./pages/admin/analysis/AnalysisPage.js')) },
              { path: ':area', lazy: page(() => import('./pages/admin/AreaPage.js')) },
            ],
          },
          { path: '404', lazy: notFound },
          { path: '*', lazy: notFound },
        ],
      },
    ],
  },
];
