import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  api,
  ERRORS,
  formatServerTime,
  LANGUAGES,
  LoginBody,
  MONITOR_STEPS,
  parseServerTime,
  QUESTION_TYPE_DISPLAY_ORDER,
  QUESTION_TYPES,
  RISK_EVENTS,
  riskCategoryOf,
  serverDayStart,
} from './index.js';

describe('the ids and constants clients rely on', () => {
  it('shows every question type once, in the specified order', () => {
    expect(QUESTION_TYPE_DISPLAY_ORDER).toEqual([1, 2, 11, 3, 7, 4, 10, 9, 5, 8, 6]);
    expect([...QUESTION_TYPE_DISPLAY_ORDER].sort((a, b) => a - b)).toEqual(QUESTION_TYPES);
  });

  it('checks the monitor steps in order with ids -5 to -1, the signature not skippable', () => {
    expect(MONITOR_STEPS.map((s) => [s.key, s.id])).toEqual([
      ['camera', -5],
      ['microphone', -4],
      ['screenSharing', -3],
      ['mobileDevice', -2],
      ['signature', -1],
    ]);
    expect(MONITOR_STEPS.at(-1)?.skipFlag).toBeNull();
    expect(MONITOR_STEPS.slice(0, 4).map((s) => s.skipRisk)).toEqual([15, 16, 17, 18]);
  });

  it('files each risk event under its category', () => {
    const byType = (t: number) =>
      Object.values(RISK_EVENTS)
        .filter((e) => e.type === t)
        .map((e) => e.id)
        .sort((a, b) => a - b);
    expect(byType(0)).toEqual([0]);
    expect(byType(1)).toEqual([1, 3, 10, 20, 21]);
    expect(byType(2)).toEqual([4, 7, 11, 12, 13, 14, 19, 22, 23]);
    expect(byType(3)).toEqual([15, 16, 17, 18]);
    expect(riskCategoryOf(19)).toBe(2);
  });

  it('offers the 21 languages', () => {
    expect(LANGUAGES).toHaveLength(21);
    expect(new Set(LANGUAGES.map((l) => l.id)).size).toBe(21);
  });

  it('answers not logged in with 401, a missing exam detail, validation, maintenance and rate limits with their statuses', () => {
    expect(ERRORS.not_logged_in).toEqual({ status: 401, msg: 'not logged in' });
    expect(ERRORS.exam_detail_missing.msg).toBe('failed to get exam detail');
    expect(ERRORS.validation_error.status).toBe(422);
    expect(ERRORS.maintenance.status).toBe(503);
    expect(ERRORS.rate_limited.status).toBe(429);
  });

  it('declares every call the candidate client makes, each method and path once', () => {
    const clientCalls = [
      'GET /sts/get-token',
      'GET /monitor/time-table',
      'POST /exam/feedback',
      'GET /exam/wx-url-link',
      'GET /ceping/exam-line-order',
      'GET /ceping/exam-order-list',
      'GET /ceping/exam-show',
      'GET /ceping/exam-show-new',
      'POST /ceping/answer',
      'POST /ceping/exam-finish',
      'GET /exam/index',
      'GET /exam/show',
      'POST /monitor/start-exam',
      'GET /subject/show-new',
      'GET /subject/order-list',
      'POST /answer/answer',
      'POST /answer/judge',
      'POST /subject/get-audio-info',
      'POST /subject/audio-play',
      'POST /monitor/finish-exam',
      'POST /tools/face_recognize',
      'POST /monitor/first-picture',
      'POST /monitor/record-risk',
      'POST /answer/pertinent-moment',
      'POST /answer/byte',
      'GET /user/send-msg',
      'GET /user/area-code-list',
      'GET /user/get-info',
      'POST /user/login',
      'GET /exam/get-anid-info',
      'GET /exam/recommend-info',
    ];
    const declared = Object.values(api).map((c) => `${c.method} ${c.path}`);
    for (const c of clientCalls) expect(declared, c).toContain(c);
    expect(new Set(declared).size).toBe(declared.length);
  });
});

describe('schemas', () => {
  it('normalizes and checks a login', () => {
    expect(LoginBody.parse({ phone: '138 0013-8000', code: '123456' })).toEqual({
      phone: '13800138000',
      area_code: '86',
      code: '123456',
    });
    const bad = LoginBody.safeParse({ phone: '12800138000', code: '123456' });
    expect(bad.success).toBe(false);
    expect(z.prettifyError(bad.error!)).toContain('invalid phone number');
  });
});

describe('server time (UTC+8)', () => {
  it('formats and parses in UTC+8 whatever the machine zone', () => {
    expect(formatServerTime(Date.UTC(2024, 7, 5, 1, 0))).toBe('2024-08-05 09:00:00');
    expect(parseServerTime('2024-08-05 09:00')).toBe(Date.UTC(2024, 7, 5, 1, 0));
    expect(parseServerTime('2024-08-05T09:00:30')).toBe(Date.UTC(2024, 7, 5, 1, 0, 30));
    expect(parseServerTime('2024-08-05T01:00:00Z')).toBe(Date.UTC(2024, 7, 5, 1, 0));
    expect(parseServerTime('2024-08-05')).toBeNaN();
    expect(parseServerTime('soon')).toBeNaN();
  });

  it('starts the day at midnight UTC+8', () => {
    expect(serverDayStart(Date.UTC(2026, 10, 21, 15, 59))).toBe(Date.UTC(2026, 10, 20, 16, 0));
    expect(serverDayStart(Date.UTC(2026, 10, 21, 16, 0))).toBe(Date.UTC(2026, 10, 21, 16, 0));
  });
});
