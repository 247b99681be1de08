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
