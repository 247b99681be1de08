/**
 * The console's areas, one entry each: its path, menu entry, who may see it and its pages. The console's routes
 * (Console.tsx), its menu (AdminFrame.tsx) and its placeholder page (AreaPage.tsx) are derived from this table. The
 * server knows an area's own page from `/admin/:area`, and the pages below it from the contract's `CONSOLE_SUBPAGES`,
 * by which the pages here are keyed. The table loads with the console, not with the app's entry: its icons and pages
 * cost the candidates' pages nothing.
 */
import {
  ApiOutlined,
  AuditOutlined,
  DatabaseOutlined,
  EditOutlined,
  FileTextOutlined,
  SyncOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ConsoleSubpage, Permission } from '@examhall/contract';
import type { ReactNode } from 'react';
import type { MessageKey } from '../../i18n/index.js';
import { lazyPage as page, type LazyPage } from '../../shell/appRouter.js';

/** An area of the console. */
export interface ConsoleArea {
  /** Its path under /admin; also its menu entry's key and test id (`nav-<path>`). */
  path: 'exams' | 'questions' | 'candidates' | 'proctoring' | 'grading' | 'staff' | 'audit' | 'jobs' | 'integrations';
  /** Its menu entry. */
  label: MessageKey;
  icon: ReactNode;
  /** Who sees it in the menu (each page checks its own calls' permissions too). */
  permission: Permission;
  /** What it is for: the placeholder says it while the area has no page; null when there is nothing to say. */
  description: MessageKey | null;
  /** Its own page; without one, the placeholder page stands in. */
  page?: LazyPage;
  /** The pages below it (reached from its page), by their path under /admin. */
  subpages?: Partial<Record<ConsoleSubpage, LazyPage>>;
}

/** The console's areas in menu order. */
export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  {
    path: 'exams',
    label: 'admin.menu.exams',
    icon: <FileTextOutlined aria-hidden />,
    permission: 'exam.read',
    description: 'admin.area.exams',
    page: page(() => import('./exams/ExamsPage.js')),
    subpages: { 'exams/:examId': page(() => import('./exams/ExamEditorPage.js')) },
  },
  {
    path: 'questions',
    label: 'admin.menu.questions',
    icon: <DatabaseOutlined aria-hidden />,
    permission: 'bank.read',
    description: 'admin.area.questions',
    page: page(() => import('./bank/BankPage.js')),
  },
  {
    path: 'candidates',
    label: 'admin.menu.candidates',
    icon: <TeamOutlined aria-hidden />,
    permission: 'candidate.read',
    description: 'admin.area.candidates',
    page: page(() => import('./candidates/CandidatesPage.js')),
  },
  {
    path: 'proctoring',
    label: 'admin.menu.proctoring',
    icon: <VideoCameraOutlined aria-hidden />,
    permission: 'proctor.watch',
    description: 'admin.area.proctoring',
    page: page(() => import('./proctoring/ProctorExamsPage.js')),
    subpages: { 'proctoring/:examId': page(() => import('./proctoring/ProctorGridPage.js')) },
  },
  {
    path: 'grading',
    label: 'admin.menu.grading',
    icon: <EditOutlined aria-hidden />,
    permission: 'grade.read',
    description: 'admin.area.grading',
    page: page(() => import('./grading/GradingExamsPage.js')),
    subpages: {
      'grading/:examId': page(() => import('./grading/GradingExamPage.js')),
      'grading/similarity': page(() => import('./grading/similarity/SimilarityPage.js')),
      'results/:examId': page(() => import('./results/ResultsPage.js')),
      'analysis/:examId': page(() => import('./analysis/AnalysisPage.js')),
    },
  },
  {
    path: 'staff',
    label: 'admin.menu.staff',
    icon: <UserOutlined aria-hidden />,
    permission: 'staff.read',
    description: null,
    page: page(() => import('./staff/StaffPage.js')),
  },
  {
    path: 'audit',
    label: 'admin.menu.audit',
    icon: <AuditOutlined aria-hidden />,
    permission: 'audit.read',
    description: 'admin.area.audit',
    page: page(() => import('./audit/AuditPage.js')),
  },
  {
    path: 'jobs',
    label: 'admin.menu.jobs',
    icon: <SyncOutlined aria-hidden />,
    permission: 'job.read',
    description: 'admin.area.jobs',
    page: page(() => import('./jobs/JobsPage.js')),
  },
  {
    path: 'integrations',
    label: 'admin.menu.integrations',
    icon: <ApiOutlined aria-hidden />,
    permission: 'system.manage',
    description: 'admin.area.integrations',
    page: page(() => import('./integrations/IntegrationsPage.js')),
  },
];
