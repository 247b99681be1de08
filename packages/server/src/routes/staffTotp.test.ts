/** The staff second factor (TOTP): enrolment, login with a code or a recovery code, disabling, the admins' policy. */
import { api, STAFF_LOGIN_RULES, type StaffView, type TotpConfirmData, type TotpEnrolData } from '@examhall/contract';
import { generateSecret, generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, TEST_ADMIN, type TestApp } from '../test/app.js';
import { sendCall } from '../test/callWorld.js';
import { lastAuditEntry } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { enrolTotp, newStaffAccount, STAFF_PASSWORD, staffPasswordLogin, totpCode } from '../test/staffTotp.js';
import { SEALED_PREFIX } from '../services/totpSecrets.js';

const PASSWORD = STAFF_PASSWORD;

describe.each(await testedDialects())('staff TOTP on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });

  const code = (secret: string) => totpCode(s.t, secret);
  const login = (phone: string, extra: Record<string, string> = {}, password = PASSWORD) =>
    staffPasswordLogin(s.t, phone, extra, password);
  const newAccount = () => newStaffAccount(s.t, s.admin, { name: 'Two factors', phonePrefix: '138' });
  /** An account with TOTP on: its secret and recovery codes. */
  const enrolled = async () => {
    const account = await newAccount();
    return { ...account, ...(await enrolTotp(s.t, account.token, true)) };
  };

  it('enrols: a secret and its QR code once, a wrong code refused, a right one turns it on with ten recovery codes', async () => {
    const { token } = await newAccount();
    const enrol = await sendCall(s.t, api.staffTotpEnrol, {}, token);
    const data = body<TotpEnrolData>(enrol).data;
    expect(data.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Examhall:.*secret=/);
    expect(data.otpauth_uri).toContain(`secret=${data.secret}`);
    expect(data.qr_svg).toMatch(/^<svg/);
    expect(body<StaffView>(await sendCall(s.t, api.staffMe, {}, token)).data.totp_enabled).toBe(false);

    const wrong = String((Number(code(data.secret)) + 1) % 1_000_000).padStart(6, '0');
    const refused = await sendCall(s.t, api.staffTotpConfirm, { body: { code: wrong } }, token);
    expect([refused.statusCode, body(refused).code]).toEqual([422, 'totp_invalid']);

    const confirm = await sendCall(s.t, api.staffTotpConfirm, { body: { code: code(data.secret) } }, token);
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes = body<TotpConfirmData>(confirm).data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const me = await sendCall(s.t, api.staffMe, {}, token);
    expect(body<StaffView>(me).data).toMatchObject({ totp_enabled: true, totp_enrolment_required: false });
    // Never again: enrolling anew is refused while it is on, and no answer, log line or audit entry holds the secret.
    expect(body(await sendCall(s.t, api.staffTotpEnrol, {}, token)).code).toBe('conflict');
    const audit = await s.t.db.handle.db.selectFrom('audit_log').selectAll().execute();
    const list = await sendCall(s.t, api.staffList, {}, s.admin);
    for (const text of [me.body, list.body, JSON.stringify(audit), s.t.logs.join('')]) {
      expect(text).not.toContain(data.secret);
      for (const c of codes) expect(text).not.toContain(c);
    }
    const stored = await s.t.db.handle.db.selectFrom('staff_recovery_codes').select('code_hash').execute();
    for (const c of codes) expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));
  });

  it('logs in with the code after the password: missing asks for it, wrong or replayed is refused, right gets in', async () => {
    const { phone, secret } = await enrolled();
    // A missing code gives the try back: asking for it never locks the account.
    for (let i = 0; i < STAFF_LOGIN_RULES.maxFailures + 2; i++) {
      const res = await login(phone);
      expect([res.statusCode, body(res).code]).toEqual([401, 'totp_required']);
    }
    const wrongPassword = await login(phone, { totp_code: code(secret) }, 'wrong-password');
    expect(body(wrongPassword).code).toBe('invalid_credentials');
    const wrong = await login(phone, { totp_code: '000000' === code(secret) ? '111111' : '000000' });
    expect([wrong.statusCode, body(wrong).code]).toEqual([422, 'totp_invalid']);
    const right = code(secret);
    const ok = await login(phone, { totp_code: right });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<{ staff: StaffView }>(ok).data.staff.totp_enabled).toBe(true);
    // The same code a second time (seen over a shoulder) is spent.
    expect(body(await login(phone, { totp_code: right })).code).toBe('totp_invalid');
  });

  it('counts wrong codes toward the lock like wrong passwords', async () => {
    const { phone, secret } = await enrolled();
    const bad = code(secret) === '123456' ? '654321' : '123456';
    for (let i = 0; i < STAFF_LOGIN_RULES.maxFailures; i++) {
      expect(body(await login(phone, { totp_code: bad })).code).toBe('totp_invalid');
    }
    const locked = await login(phone, { totp_code: code(secret) });
    expect([locked.statusCode, body(locked).code]).toEqual([429, 'account_locked']);
    s.t.advance(STAFF_LOGIN_RULES.windowMs);
    expect((await login(phone, { totp_code: code(secret) })).statusCode).toBe(200);
  });

  it('takes a recovery code instead of the app, each one once', async () => {
    const { phone, recovery } = await enrolled();
    const [first, second] = recovery as [string, string];
    const ok = await login(phone, { recovery_code: first });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body(await login(phone, { recovery_code: first })).code).toBe('totp_invalid');
    // Case and dashes do not matter.
    expect((await login(phone, { recovery_code: second.toUpperCase().replace('-', '') })).statusCode).toBe(200);
    const entry = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'staff.login')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.detail).toBe('recovery code used');
  });

  const stored = (id: number) =>
    s.t.db.handle.db
      .selectFrom('staff')
      .select(['totp_secret', 'totp_pending_secret'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('keeps the secret encrypted at rest, enrolled and confirmed, and logs in with its codes', async () => {
    const { id, token } = await newAccount();
    const { secret } = body<TotpEnrolData>(await sendCall(s.t, api.staffTotpEnrol, {}, token)).data;
    const pending = await stored(id);
    expect(pending.totp_pending_secret).toMatch(new RegExp(`^${SEALED_PREFIX}[0-9a-f]{8}:`));
    expect(pending.totp_pending_secret).not.toContain(secret);
    const confirm = await sendCall(s.t, api.staffTotpConfirm, { body: { code: code(secret) } }, token);
    expect(confirm.statusCode, confirm.body).toBe(200);
    const on = await stored(id);
    expect(on.totp_secret?.startsWith(SEALED_PREFIX)).toBe(true);
    expect(on.totp_pending_secret).toBeNull();
    // Neither the row nor any other holds it, in any encoding.
    const dump = JSON.stringify(await s.t.db.handle.db.selectFrom('staff').selectAll().execute());
    for (const form of [secret, secret.toLowerCase(), Buffer.from(secret).toString('base64')]) {
      expect(dump).not.toContain(form);
    }
    s.t.advance(30_000);
    const phone = body<StaffView>(await sendCall(s.t, api.staffMe, {}, token)).data.phone;
    const ok = await login(phone, { totp_code: code(secret) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('reads a secret stored before encryption, and encrypts it at start', async () => {
    const a = await enrolled();
    // As a database written before secrets were encrypted holds it.
    await s.t.db.handle.db.updateTable('staff').set({ totp_secret: a.secret }).where('id', '=', a.id).execute();
    expect((await login(a.phone, { totp_code: code(a.secret) })).statusCode).toBe(200);
    // An enrolment in progress, stored plain too, is encrypted as well.
    const b = await newAccount();
    const pending = generateSecret();
    await s.t.db.handle.db.updateTable('staff').set({ totp_pending_secret: pending }).where('id', '=', b.id).execute();

    expect(await s.t.services.staffTotp.sealPlainSecrets()).toBe(2);
    expect(await s.t.services.staffTotp.sealPlainSecrets()).toBe(0);
    const [sa, sb] = [await stored(a.id), await stored(b.id)];
    expect(sa.totp_secret?.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sa.totp_secret).not.toContain(a.secret);
    expect(sb.totp_pending_secret?.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sb.totp_pending_secret).not.toContain(pending);
    s.t.advance(30_000);
    expect((await login(a.phone, { totp_code: code(a.secret) })).statusCode).toBe(200);
    const confirmed = await sendCall(s.t, api.staffTotpConfirm, { body: { code: code(pending) } }, b.token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it("lets an admin reset another account's second factor: it signs in with the password alone, audited", async () => {
    const a = await enrolled();
    const reset = await sendCall(s.t, api.staffResetTotp, { body: { id: a.id } }, s.admin);
    expect(reset.statusCode, reset.body).toBe(200);
    // Its sessions end, its recovery codes go, and the password alone signs it in.
    expect((await sendCall(s.t, api.staffMe, {}, a.token)).statusCode).toBe(401);
    expect(
      await s.t.db.handle.db.selectFrom('staff_recovery_codes').where('staff_id', '=', a.id).selectAll().execute(),
    ).toEqual([]);
    expect(await stored(a.id)).toEqual({ totp_secret: null, totp_pending_secret: null });
    const ok = await login(a.phone);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<{ staff: StaffView }>(ok).data.staff.totp_enabled).toBe(false);
    const entry = await lastAuditEntry(s.t, 'staff.totp_reset', a.id);
    expect(JSON.parse(entry.before!)).toMatchObject({ id: a.id, totp_enabled: true });
    expect(JSON.parse(entry.after!)).toMatchObject({ id: a.id, totp_enabled: false });

    // Nothing left to reset; one's own factor needs its proof; only an admin may.
    const again = await sendCall(s.t, api.staffResetTotp, { body: { id: a.id } }, s.admin);
    expect([again.statusCode, body(again).code]).toEqual([409, 'conflict']);
    const adminId = body<StaffView>(await sendCall(s.t, api.staffMe, {}, s.admin)).data.id;
    const own = await sendCall(s.t, api.staffResetTotp, { body: { id: adminId } }, s.admin);
    expect([own.statusCode, body(own).code]).toEqual([403, 'forbidden']);
    const b = await enrolled();
    const byAuthor = await sendCall(s.t, api.staffResetTotp, { body: { id: b.id } }, a.token);
    expect(byAuthor.statusCode).toBe(401);
    const author = body<{ token: string }>(await login(a.phone)).data.token;
    const refused = await sendCall(s.t, api.staffResetTotp, { body: { id: b.id } }, author);
    expect([refused.statusCode, body(refused).code]).toEqual([403, 'forbidden']);
    expect(body<StaffView>(await sendCall(s.t, api.staffMe, {}, b.token)).data.totp_enabled).toBe(true);
  });

  it('turns it off with the password or a current code, not with a wrong one', async () => {
    const a = await enrolled();
    const wrong = await sendCall(s.t, api.staffTotpDisable, { body: { password: 'not-it' } }, a.token);
    expect([wrong.statusCode, body(wrong).code]).toEqual([422, 'password_incorrect']);
    expect(body(await sendCall(s.t, api.staffTotpDisable, { body: {} }, a.token)).code).toBe('validation_error');
    expect((await sendCall(s.t, api.staffTotpDisable, { body: { password: PASSWORD } }, a.token)).statusCode).toBe(200);
    expect((await login(a.phone)).statusCode).toBe(200);

    const b = await enrolled();
    const byCode = await sendCall(s.t, api.staffTotpDisable, { body: { code: code(b.secret) } }, b.token);
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(body<StaffView>(await sendCall(s.t, api.staffMe, {}, b.token)).data.totp_enabled).toBe(false);
    expect(
      await s.t.db.handle.db.selectFrom('staff_recovery_codes').where('staff_id', '=', b.id).selectAll().execute(),
    ).toEqual([]);
  });
});

describe.each(await testedDialects())('TOTP required of admins on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { STAFF_TOTP_REQUIRED_FOR_ADMINS: 'true' } });
  });
  afterAll(async () => t.close());

  it('leads an admin without TOTP to enrol: the console refuses every other call until it is on', async () => {
    const token = await t.loginStaff('admin');
    const me = await sendCall(t, api.staffMe, {}, token);
    expect(body<StaffView>(me).data).toMatchObject({ totp_enabled: false, totp_enrolment_required: true });
    const list = await sendCall(t, api.staffList, {}, token);
    expect([list.statusCode, body(list).code]).toEqual([403, 'totp_enrolment_required']);
    // Other roles are not asked (the account is written directly: the admin may not create it yet).
    await t.db.handle.db
      .insertInto('staff')
      .values({
        phone: '13600000077',
        area_code: '86',
        name: 'Author',
        role: 'author',
        password_hash: await t.services.staff.passwords.hash(PASSWORD),
        disabled: 0,
        created_at: t.now(),
      })
      .execute();
    const author = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { phone: '13600000077', password: PASSWORD },
    });
    const authorToken = body<{ token: string }>(author).data.token;
    expect((await sendCall(t, api.examEditorList, {}, authorToken)).statusCode).toBe(200);

    const { secret } = body<TotpEnrolData>(await sendCall(t, api.staffTotpEnrol, {}, token)).data;
    const code = generateSync({ secret, epoch: Math.floor(t.now() / 1000) });
    expect((await sendCall(t, api.staffTotpConfirm, { body: { code } }, token)).statusCode).toBe(200);
    expect((await sendCall(t, api.staffList, {}, token)).statusCode).toBe(200);
    // From now on the admin's login needs the code.
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: TEST_ADMIN });
    expect(body(res).code).toBe('totp_required');
  });
});
