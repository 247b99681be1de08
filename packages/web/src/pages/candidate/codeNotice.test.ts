import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/format.js';
import { codeNotice } from './codeNotice.js';

describe('the notice after asking for a login code', () => {
  it('says the code was sent when it went at once, with the resend countdown the server gave', () => {
    const n = codeNotice({ resend_after: 60, expires_in: 300, delay: 0 });
    expect(n).toMatchObject({ key: 'login.codeSent', params: { min: 5 }, resendAfter: 60, seconds: 3 });
    expect(translate('zh-CN', n.key, n.params)).toBe('验证码已发送，5 分钟内有效');
  });

  it('says a queued code is on its way in about N s, and counts the resend wait from when it goes out', () => {
    const n = codeNotice({ resend_after: 105, expires_in: 345, delay: 45 });
    expect(n).toMatchObject({ key: 'login.codeQueued', params: { s: 45, min: 5 }, resendAfter: 105, seconds: 45 });
    expect(translate('zh-CN', n.key, n.params)).toBe(
      '同时登录的人较多，验证码正在路上，约 45 秒后送达，送达后 5 分钟内有效',
    );
  });

  it('reads the English text once English is loaded', async () => {
    const { loadLanguage } = await import('../../i18n/format.js');
    await loadLanguage('en-US');
    const n = codeNotice({ resend_after: 62, expires_in: 302, delay: 2 });
    expect(translate('en-US', n.key, n.params)).toBe(
      'Many are logging in: the code is on its way, about 2 s; it is valid for 5 minutes after it arrives',
    );
  });
});
