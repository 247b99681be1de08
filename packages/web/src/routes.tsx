import { Navigate, type RouteObject } from 'react-router';
import { lazyPage as page } from './shell/appRouter.js';
import { Shell } from './shell/Shell.js';

const notFound = page(() => import('./pages/NotFound.js'));

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
            ],
          },
          // The phone page (second view) is opened on a phone from the QR code: a mobile layout, no candidate frame.
          { path: 'phone', Component: page(() => import('./pages/phone/PhonePage.js')) },
          { path: 'admin/login', Component: page(() => import('./pages/admin/AdminLoginPage.js')) },
          {
            path: 'admin',
            Component: page(() => import('./pages/admin/AdminFrame.js')),
            children: [
              { index: true, Component: page(() => import('./pages/admin/home/HomePage.js')) },
              { path: 'staff', Component: page(() => import('./pages/admin/staff/StaffPage.js')) },
              { path: 'audit', Component: page(() => import('./pages/admin/audit/AuditPage.js')) },
              { path: 'jobs', Component: page(() => import('./pages/admin/jobs/JobsPage.js')) },
              { path: 'integrations', Component: page(() => import('./pages/admin/integrations/IntegrationsPage.js')) },
              { path: 'candidates', Component: page(() => import('./pages/admin/candidates/CandidatesPage.js')) },
              { path: 'questions', Component: page(() => import('./pages/admin/bank/BankPage.js')) },
              { path: 'exams', Component: page(() => import('./pages/admin/exams/ExamsPage.js')) },
              { path: 'exams/:examId', Component: page(() => import('./pages/admin/exams/ExamEditorPage.js')) },
              { path: 'proctoring', Component: page(() => import('./pages/admin/proctoring/ProctorExamsPage.js')) },
              {
                path: 'proctoring/:examId',
                Component: page(() => import('./pages/admin/proctoring/ProctorGridPage.js')),
              },
              { path: 'grading', Component: page(() => import('./pages/admin/grading/GradingExamsPage.js')) },
              { path: 'grading/:examId', Component: page(() => import('./pages/admin/grading/GradingExamPage.js')) },
              { path: 'results/:examId', Component: page(() => import('./pages/admin/results/ResultsPage.js')) },
              {
                path: 'grading/similarity',
                Component: page(() => import('./pages/admin/grading/similarity/SimilarityPage.js')),
              },
              { path: 'analysis/:examId', Component: page(() => import('./pages/admin/analysis/AnalysisPage.js')) },
              { path: ':area', Component: page(() => import('./pages/admin/AreaPage.js')) },
            ],
          },
          { path: '404', Component: notFound },
          { path: '*', Component: notFound },
        ],
      },
    ],
  },
];
