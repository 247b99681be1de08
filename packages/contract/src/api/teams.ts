/** Teams, proctors' and graders' exam assignments, and the console home. */
import * as T from '../schemas/team.js';
import { Empty } from '../schemas/common.js';
import { call } from './define.js';

/** Teams, exam assignments and the console home. */
export const teamCalls = {
  teamList: call({
    method: 'GET',
    path: '/admin/teams',
    summary: 'Teams with their member and exam counts',
    query: undefined,
    body: undefined,
    data: T.TeamListData,
    auth: 'staff',
    permission: 'staff.read',
    // Teams are an admin's: the permission is the whole check.
    teamFree: true,
  }),
  teamCreate: call({
    method: 'POST',
    path: '/admin/teams',
    summary: 'Create a team',
    query: undefined,
    body: T.CreateTeamBody,
    data: T.TeamView,
    auth: 'staff',
    permission: 'team.manage',
    teamFree: true,
  }),
  teamUpdate: call({
    method: 'POST',
    path: '/admin/teams/update',
    summary: 'Rename a team',
    query: undefined,
    body: T.UpdateTeamBody,
    data: T.TeamView,
    auth: 'staff',
    permission: 'team.manage',
    scope: { kind: 'team', field: 'id' },
  }),
  examStaffList: call({
    method: 'GET',
    path: '/admin/exam-staff',
    summary: "An exam's proctors and graders, and who may be assigned",
    query: T.ExamStaffQuery,
    body: undefined,
    data: T.ExamStaffListData,
    auth: 'staff',
    permission: 'exam.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  examStaffAssign: call({
    method: 'POST',
    path: '/admin/exam-staff/assign',
    summary: 'Assign a proctor or grader to an exam',
    query: undefined,
    body: T.ExamStaffBody,
    data: T.ExamStaffView,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { staff_id: 'staff' },
  }),
  examStaffUnassign: call({
    method: 'POST',
    path: '/admin/exam-staff/unassign',
    summary: 'Take a proctor or grader off an exam',
    query: undefined,
    body: T.ExamStaffBody,
    data: Empty,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { staff_id: 'staff' },
  }),
  consoleHome: call({
    method: 'GET',
    path: '/admin/home',
    summary: 'What needs attention: exams open now, undecided flags, answers waiting for a grader',
    query: undefined,
    body: undefined,
    data: T.HomeData,
    auth: 'staff',
    permission: 'exam.read',
    // Counts only the exams the caller may see.
    teamFree: true,
  }),
} as const;
