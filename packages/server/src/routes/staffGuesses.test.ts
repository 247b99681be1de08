/**
 * Every check of a staff password or TOTP code spends a try of the account's lock, the one its login uses: wrong
 * passwords and codes sent through a signed-in session (turning the second factor off, confirming an enrolment) are
 * counted before they are checked, so a burst of them at once has no more checked than the lock allows, and the
 * login is locked after them.
 */
import { api, STAFF_LOGIN_RULES, type StaffView } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import {
  countPasswordChecks as countChecksOf,
  enrolTotp,
  newStaffAccount,
  STAFF_PASSWORD,
  staffPasswordLogin,
  totpCode,
} from '../test/staffTotp.js';

const PASSWORD = STAFF_PASSWORD;
const BURST = 30;

describe.each(await testedDialects())('guesses through a staff session on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });

  const code = (secret: string, offsetS = 0) => totpCode(s.t, secret, offsetS);
  /** Six digits no code of `secret` near now is (the server takes one step either way). */
  const wrongCode = (secret: string) => {
    const near = new Set([code(secret, -30), code(secret), code(secret, 30)]);
    return ['000000', '111111', '222222', '333333'].find((c) => !near.has(c))!;
  };
  const login = (phone: string, extra: Record<string, string> = {}, password = PASSWORD) =>
    staffPasswordLogin(s.t, phone, extra, password);
  /** A new account signed in, with its second factor enrolled (`on`: confirmed too). */
  const account = async (totp: 'enrolled' | 'on') => {
    const made = await newStaffAccount(s.t, s.admin, { name: 'Guessed', phonePrefix: '139' });
    const { secret } = await enrolTotp(s.t, made.token, totp === 'on');
    return { ...made, secret };
  };
  /** Counts the argon2 verifications (the real ones, counted on the way). */
  const countPasswordChecks = () => countChecksOf(s.t);
  const outcomes = (all: { statusCode: number; body: string }[]) =>
    all.map((r) => `${r.statusCode} ${body(r as Parameters<typeof body>[0]).code}`);
  const tally = (all: string[]) =>
    Object.fromEntries([...new Set(all)].map((o) => [o, all.filter((x) => x === o).length]));

  it(`${BURST} wrong passwords at once to turn the second factor off: only the lock's tries are checked, then the login is locked`, async () => {
    const a = await account('on');
    const checks = countPasswordChecks();
    let burst: string[];
    try {
      burst = outcomes(
        await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            sendCall(s.t, api.staffTotpDisable, { body: { password: `wrong-${i}` } }, a.token),
          ),
        ),
      );
    } finally {
      checks.restore();
    }
    expect(checks.n).toBe(STAFF_LOGIN_RULES.maxFailures);
    expect(tally(burst)).toEqual({
      '422 password_incorrect': STAFF_LOGIN_RULES.maxFailures,
      '429 account_locked': BURST - STAFF_LOGIN_RULES.maxFailures,
    });
    // The lock is the login's: the right password and code do not get in now.
    const locked = await login(a.phone, { totp_code: code(a.secret) });
    expect([locked.statusCode, body(locked).code]).toEqual([429, 'account_locked']);
    // Nor does the right password turn the factor off while it lasts.
    const refused = await sendCall(s.t, api.staffTotpDisable, { body: { password: PASSWORD } }, a.token);
    expect(body(refused).code).toBe('account_locked');

    s.t.advance(STAFF_LOGIN_RULES.windowMs);
    expect((await sendCall(s.t, api.staffTotpDisable, { body: { password: PASSWORD } }, a.token)).statusCode).toBe(200);
  });

  it(`${BURST} wrong codes at once to turn it off, then ${BURST} to confirm an enrolment: each counted like a wrong login`, async () => {
    const a = await account('on');
    const off = outcomes(
      await Promise.all(
        Array.from({ length: BURST }, () =>
          sendCall(s.t, api.staffTotpDisable, { body: { code: wrongCode(a.secret) } }, a.token),
        ),
      ),
    );
    expect(tally(off)).toEqual({
      '422 totp_invalid': STAFF_LOGIN_RULES.maxFailures,
      '429 account_locked': BURST - STAFF_LOGIN_RULES.maxFailures,
    });
    const locked = await login(a.phone, { totp_code: code(a.secret) });
    expect(body(locked).code).toBe('account_locked');
    expect(body<StaffView>(await sendCall(s.t, api.staffMe, {}, a.token)).data.totp_enabled).toBe(true);

    const b = await account('enrolled');
    const confirm = outcomes(
      await Promise.all(
        Array.from({ length: BURST }, () =>
          sendCall(s.t, api.staffTotpConfirm, { body: { code: wrongCode(b.secret) } }, b.token),
        ),
      ),
    );
    expect(tally(confirm)).toEqual({
      '422 totp_invalid': STAFF_LOGIN_RULES.maxFailures,
      '429 account_locked': BURST - STAFF_LOGIN_RULES.maxFailures,
    });
    expect(body(await login(b.phone)).code).toBe('account_locked');
    // Locked, the right code is not even looked at.
    expect(body(await sendCall(s.t, api.staffTotpConfirm, { body: { code: code(b.secret) } }, b.token)).code).toBe(
      'account_locked',
    );
  });

  it('a right answer gives its try back without clearing the wrong ones before it', async () => {
    const a = await account('on');
    const wrong = () => sendCall(s.t, api.staffTotpDisable, { body: { password: 'not-it' } }, a.token);
    for (let i = 0; i < STAFF_LOGIN_RULES.maxFailures - 1; i++)
      expect(body(await wrong()).code).toBe('password_incorrect');
    // Right: turned off, and its try given back, so the account is one wrong try from the lock, not more, not less.
    expect((await sendCall(s.t, api.staffTotpDisable, { body: { code: code(a.secret) } }, a.token)).statusCode).toBe(
      200,
    );
    const bad = await login(a.phone, {}, 'wrong-again');
    expect(body(bad).code).toBe('invalid_credentials');
    expect(body(await login(a.phone)).code).toBe('account_locked');
  });
});
