/** Login, the candidate account, site settings and the server clock. */
import * as M from '../schemas/monitor.js';
import * as Site from '../schemas/site.js';
import * as U from '../schemas/user.js';
import { Empty } from '../schemas/common.js';
import { call } from './define.js';

/** Login, the candidate account, site settings and the server clock. */
export const userCalls = {
  // user
  areaCodeList: call({
    method: 'GET',
    path: '/user/area-code-list',
    summary: 'Calling codes offered at login',
    query: undefined,
    body: undefined,
    data: U.AreaCodeListData,
    auth: 'public',
  }),
  sendMsg: call({
    method: 'GET',
    path: '/user/send-msg',
    summary: 'Send a login code by SMS',
    query: U.SendMsgQuery,
    body: undefined,
    data: U.SendMsgData,
    auth: 'public',
  }),
  login: call({
    method: 'POST',
    path: '/user/login',
    summary: 'Log in with phone and SMS code',
    query: undefined,
    body: U.LoginBody,
    data: U.LoginData,
    auth: 'public',
  }),
  getInfo: call({
    method: 'GET',
    path: '/user/get-info',
    summary: 'The logged-in candidate',
    query: undefined,
    body: undefined,
    data: U.GetInfoData,
    auth: 'candidate',
  }),
  logout: call({
    method: 'POST',
    path: '/user/logout',
    summary: 'Revoke the current token',
    query: undefined,
    body: undefined,
    data: Empty,
    auth: 'candidate',
  }),
  // site and time
  siteConfig: call({
    method: 'GET',
    path: '/common/site-config',
    summary: 'Maintenance window, support phone and client settings',
    query: undefined,
    body: undefined,
    data: Site.SiteConfigData,
    auth: 'public',
  }),
  timeTable: call({
    method: 'GET',
    path: '/monitor/time-table',
    summary: 'Server time (UTC+8)',
    query: undefined,
    body: undefined,
    data: M.TimeTableData,
    auth: 'public',
  }),
} as const;
