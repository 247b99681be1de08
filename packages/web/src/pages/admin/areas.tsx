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
import type { Permission } from '@examhall/contract';
import type { ReactNode } from 'react';
import type { MessageKey } from '../../i18n/index.js';

/** An area of the console: its path under /admin, menu label, what it is for, and who may see it. */
export interface ConsoleArea {
  key: 'exams' | 'questions' | 'candidates' | 'proctoring' | 'grading' | 'staff' | 'audit' | 'jobs' | 'integrations';
  label: MessageKey;
  description: MessageKey | null;
  permission: Permission;
  icon: ReactNode;
}

/** The console's areas in menu order. */
export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  {
    key: 'exams',
    label: 'admin.menu.exams',
    description: 'admin.area.exams',
    permission: 'exam.read',
    icon: <FileTextOutlined />,
  },
  {
    key: 'questions',
    label: 'admin.menu.questions',
    description: 'admin.area.questions',
    permission: 'bank.read',
    icon: <DatabaseOutlined />,
  },
  {
    key: 'candidates',
    label: 'admin.menu.candidates',
    description: 'admin.area.candidates',
    permission: 'candidate.read',
    icon: <TeamOutlined />,
  },
  {
    key: 'proctoring',
    label: 'admin.menu.proctoring',
    description: 'admin.area.proctoring',
    permission: 'proctor.watch',
    icon: <VideoCameraOutlined />,
  },
  {
    key: 'grading',
    label: 'admin.menu.grading',
    description: 'admin.area.grading',
    permission: 'grade.read',
    icon: <EditOutlined />,
  },
  { key: 'staff', label: 'admin.menu.staff', description: null, permission: 'staff.read', icon: <UserOutlined /> },
  {
    key: 'audit',
    label: 'admin.menu.audit',
    description: 'admin.area.audit',
    permission: 'audit.read',
    icon: <AuditOutlined />,
  },
  {
    key: 'jobs',
    label: 'admin.menu.jobs',
    description: 'admin.area.jobs',
    permission: 'job.read',
    icon: <SyncOutlined />,
  },
  {
    key: 'integrations',
    label: 'admin.menu.integrations',
    description: 'admin.area.integrations',
    permission: 'system.manage',
    icon: <ApiOutlined />,
  },
];
