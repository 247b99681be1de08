import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

describe.runIf(browserAvailable())('staff second factor journey', () => {
  // The operator requires a second factor of admins: the first login leads to enrolment.
  const j = useJourney({ STAFF_TOTP_REQUIRED_FOR_ADMINS: 'true' });

  it('an admin is led to turn TOTP on, then logs in with a code from the app, and once with a recovery code', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    const passwordStep = async () => {
      await page.goto('/admin/login');
      await page.getByTestId('staff-phone').fill(ADMIN.phone);
      await page.getByTestId('staff-password').fill(ADMIN.password);
      await page.getByTestId('staff-login-submit').click();
    };

    await passwordStep();
    await page.getByTestId('admin-console').waitFor();
    await page.getByTestId('totp-panel').waitFor();
    await page.getByTestId('totp-start').click();
    await page.getByTestId('totp-qr').waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByTestId('totp-code').fill(generateSync({ secret }));
    await page.getByTestId('totp-confirm').click();
    const codes = page.getByTestId('totp-recovery-codes').locator('li');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const recovery = ((await codes.first().textContent()) ?? '').trim();
    await page.getByTestId('totp-done').click();
    await page.getByTestId('console-home').waitFor();

    // The next login asks for the code after the password. The code of the next time step: the one used
    // to confirm is spent, and the server accepts one step of drift.
    await page.getByTestId('staff-logout').click();
    await page.waitForURL(/\/admin\/login$/);
    await passwordStep();
    await page.getByTestId('staff-totp').fill(generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('console-home').waitFor();

    await page.getByTestId('staff-logout').click();
    await page.waitForURL(/\/admin\/login$/);
    await passwordStep();
    await page.getByTestId('staff-totp').waitFor();
    await page.getByTestId('staff-factor-switch').click();
    await page.getByTestId('staff-recovery').fill(recovery);
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('console-home').waitFor();

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});

describe.runIf(browserAvailable())('staff second factor reset journey', () => {
  const j = useJourney();

  /** A staff call outside the browser (no Origin, as another system's script would make it). */
  const call = async <T>(p: string, body: unknown, token?: string) => {
    const res = await fetch(`${j.server.baseUrl}/api${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { status: string; code?: string; data: T };
  };

  it('an admin resets the second factor of a proctor who lost the app, after a confirmation', async () => {
    const admin = (await call<{ token: string }>('/admin/auth/login', ADMIN)).data.token;
    const proctor = { phone: '13700137001', password: 'proctor-pass-1' };
    const created = await call<{ id: number }>(
      '/admin/staff',
      { ...proctor, area_code: '86', name: 'Wang Proctor', role: 'proctor' },
      admin,
    );
    const own = (await call<{ token: string }>('/admin/auth/login', proctor)).data.token;
    const { secret } = (await call<{ secret: string }>('/admin/auth/totp/enrol', {}, own)).data;
    expect((await call('/admin/auth/totp/confirm', { code: generateSync({ secret }) }, own)).status).toBe('success');
    expect((await call('/admin/auth/login', proctor)).code).toBe('totp_required');

    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await page.goto('/admin/login');
    await page.getByTestId('staff-phone').fill(ADMIN.phone);
    await page.getByTestId('staff-password').fill(ADMIN.password);
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('admin-console').waitFor();
    await page.getByTestId('nav-staff').click();
    const reset = page.getByTestId(`staff-reset-totp-${created.data.id}`);
    await reset.click();
    await page.getByTestId(`staff-reset-totp-confirm-${created.data.id}`).click();
    // The list is read again: without a second factor there is nothing left to reset.
    await reset.waitFor({ state: 'detached' });
    expect((await call('/admin/auth/login', proctor)).status).toBe('success');

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
