/** Texts the budgets held back are worded in both languages, never as the budgets' raw names. */
import { SMS_LIMITS, type HeldBy, type SmsLimit } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { configureClient, describeError } from '../../../api/client.js';
import '../../../i18n/console.js';
import { loadLanguage, translate, type Language } from '../../../i18n/format.js';
import { heldReasons, limitText, resendMessage } from './heldTexts.js';

await loadLanguage('en-US');

const heldBy = (counts: Partial<HeldBy>): HeldBy => ({
  ...(Object.fromEntries(SMS_LIMITS.map((l) => [l, 0])) as HeldBy),
  ...counts,
});
/** No budget's raw name, no unfilled placeholder, no dictionary key. */
const worded = (text: string) => {
  for (const l of SMS_LIMITS) expect(text).not.toContain(l);
  expect(text).not.toMatch(/\{\w+\}|console\.|error\./);
};

describe.each<Language>(['zh-CN', 'en-US'])('held texts in %s', (lang) => {
  const t = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) =>
    translate(lang, key, params);

  it('names each budget, and what a resend did with the reasons and counts', () => {
    const names = SMS_LIMITS.map((l) => limitText(t, l));
    expect(new Set(names).size).toBe(SMS_LIMITS.length);
    names.forEach(worded);
    const some = resendMessage(t, {
      queued: 3,
      held: 3,
      held_by: heldBy({ resend_interval: 2, exam_daily: 1 }),
      skipped: [7],
    });
    expect(some.held).toBe(true);
    worded(some.text);
    expect(some.text).toContain(limitText(t, 'resend_interval'));
    expect(some.text).toContain(limitText(t, 'exam_daily'));
    expect(some.text).not.toContain(limitText(t, 'team_daily'));
    expect(heldReasons(t, heldBy({ phone_daily: 4 }))).toContain('4');
    expect(resendMessage(t, { queued: 2, held: 0, held_by: heldBy({}), skipped: [] }).held).toBe(false);
  });

  it('words a resend refused by a budget with its figure and when to try again', () => {
    configureClient({ getLanguage: () => lang });
    const codes: Record<SmsLimit, Parameters<typeof describeError>[0]> = {
      resend_interval: 'sms_resend_too_frequent',
      resend_daily: 'sms_resend_daily_limit',
      phone_daily: 'sms_phone_daily_limit',
      exam_daily: 'sms_exam_daily_limit',
      team_daily: 'sms_team_daily_limit',
    };
    for (const limit of SMS_LIMITS) {
      const text = describeError(codes[limit], 'held back', { limit, held: 2, max: 3, minutes: 5, retry_after: 240 });
      worded(text);
      expect(text).toContain('2');
      expect(text).toContain(limit === 'resend_interval' ? '240' : '3');
    }
  });
});
