/** The audit log. */
import * as Au from '../schemas/audit.js';
import { call } from './define.js';

/** The audit log. */
export const auditCalls = {
  auditList: call({
    method: 'GET',
    path: '/admin/audit',
    summary: 'Audit log entries, filtered, sorted and paged',
    query: Au.AuditQuery,
    body: undefined,
    data: Au.AuditListData,
    auth: 'staff',
    permission: 'audit.read',
    // The log is an admin's: the permission is the whole check.
    teamFree: true,
    refs: { actor_id: 'filter', object_id: 'filter' },
  }),
} as const;
