import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

describe.runIf(browserAvailable())('staff console journey', () => {
  const j = useJourney();

  it('logs in with a password, shows the console frame and the staff list, creates an account, logs out', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);

    await page.goto('/admin');
    await page.waitForURL(/\/admin\/login\?redirect=/);

    await page.getByTestId('staff-phone').fill(ADMIN.phone);
    await page.getByTestId('staff-password').fill('not-the-password');
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('staff-login-error').waitFor();

    await page.getByTestId('staff-password').fill(ADMIN.password);
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('admin-console').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.getByTestId('staff-role').textContent()).toBe('管理员');

    // Every area is in the sidebar for an admin; the console opens on its home (what needs attention).
    for (const area of ['home', 'exams', 'questions', 'candidates', 'proctoring', 'grading', 'staff', 'audit']) {
      await page.getByTestId(`nav-${area}`).waitFor();
    }
    await page.getByTestId('console-home').waitFor();
    await page.getByTestId('nav-proctoring').click();
    await page.getByTestId('proctor-exams').waitFor();

    await page.getByTestId('nav-staff').click();
    await page.waitForURL(/\/admin\/staff$/);
    await page.getByTestId('staff-table').getByText(ADMIN.phone).waitFor();

    await page.getByTestId('staff-create-name').fill('Li Proctor');
    await page.getByTestId('staff-create-phone').fill('13700137000');
    await page.getByTestId('staff-create-password').fill('proctor-pass-1');
    await page.getByTestId('staff-create-submit').click();
    await page.getByTestId('staff-table').getByText('13700137000').waitFor();

    // The session lives in an httpOnly cookie, so a reload keeps the console.
    await page.reload();
    await page.getByTestId('staff-table').getByText('Li Proctor').waitFor();

    await page.getByTestId('staff-logout').click();
    await page.waitForURL(/\/admin\/login$/);
    await page.goto('/admin/staff');
    await page.waitForURL(/\/admin\/login\?redirect=%2Fadmin%2Fstaff$/);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
