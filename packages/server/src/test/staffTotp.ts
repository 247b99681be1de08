/** Staff accounts for the password and second-factor tests: made by the admin, signed in, TOTP enrolled, checks counted. */
import { api, type StaffView, type TotpConfirmData, type TotpEnrolData } from '@examhall/contract';
import { generateSync } from 'otplib';
import { expect } from 'vitest';
import { body, type TestApp } from './app.js';
import { freshPhone, sendCall } from './callWorld.js';

/** The password of every account made here. */
export const STAFF_PASSWORD = 'password-1';

/** The TOTP code of `secret` at the app's time, `offsetS` seconds away. */
export const totpCode = (t: TestApp, secret: string, offsetS = 0) =>
  generateSync({ secret, epoch: Math.floor(t.now() / 1000) + offsetS });

/** The staff login call with a phone, a password (default STAFF_PASSWORD) and extra fields such as a code. */
export const staffPasswordLogin = (
  t: TestApp,
  phone: string,
  extra: Record<string, string> = {},
  password = STAFF_PASSWORD,
) => t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { phone, password, ...extra } });

/** A new author made by the admin and signed in: phone, token and id. */
export async function newStaffAccount(
  t: TestApp,
  admin: string,
  opts: { name: string; phonePrefix: string },
): Promise<{ phone: string; token: string; id: number }> {
  const phone = freshPhone(opts.phonePrefix);
  const res = await sendCall(
    t,
    api.staffCreate,
    { body: { phone, area_code: '86', name: opts.name, role: 'author', password: STAFF_PASSWORD } },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
  const token = body<{ token: string }>(await staffPasswordLogin(t, phone)).data.token;
  return { phone, token, id: body<StaffView>(res).data.id };
}

/**
 * Enrols the account's second factor; with `confirm`, confirms it with the current code (and moves the clock a step
 * on, since that code is spent). Answers the secret and, once confirmed, the recovery codes.
 */
export async function enrolTotp(
  t: TestApp,
  token: string,
  confirm: boolean,
): Promise<{ secret: string; recovery: string[] }> {
  const enrol = await sendCall(t, api.staffTotpEnrol, {}, token);
  expect(enrol.statusCode, enrol.body).toBe(200);
  const { secret } = body<TotpEnrolData>(enrol).data;
  if (!confirm) return { secret, recovery: [] };
  const confirmed = await sendCall(t, api.staffTotpConfirm, { body: { code: totpCode(t, secret) } }, token);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // The next code is of a later step: the one used to confirm is spent.
  t.advance(30_000);
  return { secret, recovery: body<TotpConfirmData>(confirmed).data.recovery_codes };
}

/** Counts the app's argon2 verifications from now on (the real ones run, counted on the way); `restore` stops it. */
export function countPasswordChecks(t: TestApp): { n: number; restore: () => void } {
  const real = t.services.staff.passwords.verify;
  const counter = { n: 0, restore: () => void (t.services.staff.passwords.verify = real) };
  t.services.staff.passwords.verify = async (hash, password) => {
    counter.n += 1;
    return real(hash, password);
  };
  return counter;
}
