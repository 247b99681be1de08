/** Invitations by SMS: bulk invitations as a job, resends, revocations, each exam's texts and their delivery. */
import * as V from '../schemas/invitations.js';
import { ExamIdQuery } from '../schemas/examEditor.js';
import { call } from './define.js';

/** Invitation calls of the console. */
export const invitationCalls = {
  invitationsBulk: call({
    method: 'POST',
    path: '/admin/exam/invitations/bulk',
    summary: 'Invite many phones or candidates to an exam and text each its link (a job)',
    query: undefined,
    body: V.BulkInviteBody,
    data: V.StartedJobData,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  invitationsResend: call({
    method: 'POST',
    path: '/admin/exam/invitations/resend',
    summary: "Text invitations' links again",
    query: undefined,
    body: V.ResendBody,
    data: V.ResendData,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  invitationsRevoke: call({
    method: 'POST',
    path: '/admin/exam/invitations/revoke',
    summary: 'Revoke invitations not yet started, with a reason',
    query: undefined,
    body: V.RevokeBody,
    data: V.RevokeData,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  examSms: call({
    method: 'GET',
    path: '/admin/exam/sms-settings',
    summary: "An exam's texts: invitation and reminder templates, reminder times",
    query: ExamIdQuery,
    body: undefined,
    data: V.ExamSmsData,
    auth: 'staff',
    permission: 'exam.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  examSmsSave: call({
    method: 'POST',
    path: '/admin/exam/sms-settings',
    summary: "Save an exam's texts",
    query: undefined,
    body: V.ExamSmsBody,
    data: V.ExamSmsData,
    auth: 'staff',
    permission: 'exam.manage',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  smsList: call({
    method: 'GET',
    path: '/admin/exam/sms',
    summary: "An exam's texts with their delivery state, filtered and paged, and counts per state",
    query: V.SmsListQuery,
    body: undefined,
    data: V.SmsListData,
    auth: 'staff',
    permission: 'exam.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
} as const;
