/** Staff login and accounts. */
import * as St from '../schemas/staff.js';
import { Empty } from '../schemas/common.js';
import { call } from './define.js';

/** Staff login and accounts. */
export const staffCalls = {
  // staff
  staffLogin: call({
    method: 'POST',
    path: '/admin/auth/login',
    summary: 'Staff password login',
    query: undefined,
    body: St.StaffLoginBody,
    data: St.StaffLoginData,
    auth: 'public',
  }),
  staffLogout: call({
    method: 'POST',
    path: '/admin/auth/logout',
    summary: 'Revoke the current staff token',
    query: undefined,
    body: undefined,
    data: Empty,
    auth: 'staff',
    teamFree: true,
  }),
  staffMe: call({
    method: 'GET',
    path: '/admin/auth/me',
    summary: 'The logged-in staff account',
    query: undefined,
    body: undefined,
    data: St.StaffView,
    auth: 'staff',
    teamFree: true,
  }),
  staffList: call({
    method: 'GET',
    path: '/admin/staff',
    summary: 'Staff accounts',
    query: undefined,
    body: undefined,
    data: St.StaffListData,
    auth: 'staff',
    permission: 'staff.read',
    // Staff accounts are an admin's: the permission is the whole check.
    teamFree: true,
  }),
  staffCreate: call({
    method: 'POST',
    path: '/admin/staff',
    summary: 'Create a staff account',
    query: undefined,
    body: St.CreateStaffBody,
    data: St.StaffView,
    auth: 'staff',
    permission: 'staff.manage',
    teamFree: true,
  }),
  staffUpdate: call({
    method: 'POST',
    path: '/admin/staff/update',
    summary: "Change a staff account's name, role, team or disabled state",
    query: undefined,
    body: St.UpdateStaffBody,
    data: St.StaffView,
    auth: 'staff',
    permission: 'staff.manage',
    scope: { kind: 'staff', field: 'id' },
  }),
  staffResetPassword: call({
    method: 'POST',
    path: '/admin/staff/reset-password',
    summary: "Set a staff account's password; its tokens stop working",
    query: undefined,
    body: St.ResetStaffPasswordBody,
    data: Empty,
    auth: 'staff',
    permission: 'staff.manage',
    scope: { kind: 'staff', field: 'id' },
  }),
} as const;
