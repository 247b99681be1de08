import { describe, expect, it } from 'vitest';
import { startHookReceiver } from '../packages/server/src/test/webhookReceiver.js';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { inputOf, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

describe.runIf(browserAvailable())('integrations journey', () => {
  // The receiver listens on this machine: the operator lets webhooks reach private addresses.
  const j = useJourney({ WEBHOOK_ALLOW_PRIVATE: 'true' });

  it('adds a webhook with a generated secret, tests it, sees the log, makes a token once and revokes it', async () => {
    const receiver = await startHookReceiver('');
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    try {
      await staffLogin(page, ADMIN, '/admin/integrations');
      await page.getByTestId('integrations-page').waitFor();
      await page.getByTestId('webhooks-table').getByText('还没有 Webhook 地址').waitFor();
      const empty = await scanA11y(page);
      expect(empty, describeViolations('/admin/integrations', empty)).toEqual([]);

      await page.getByTestId('webhook-add').click();
      // Checked while typing: another scheme is refused before anything is sent.
      await inputOf(page.getByTestId('webhook-url')).fill('ftp://ats.example.com/hook');
      await page.getByTestId('webhook-form').getByText('请输入 http:// 或 https:// 地址').waitFor();
      await inputOf(page.getByTestId('webhook-url')).fill(receiver.url);
      await page.getByTestId('webhook-secret-generate').click();
      const secret = await inputOf(page.getByTestId('webhook-secret')).inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(40);
      receiver.secret = secret;
      await page.getByTestId('webhook-save').click();
      const row = page.getByTestId('webhooks-table').getByText(receiver.url);
      await row.waitFor();

      await page.locator('[data-testid^="webhook-test-"]').click();
      await page.getByText('测试已送达（HTTP 200）').waitFor();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.verified).toBe(true);
      await page.getByTestId('deliveries-table').getByText('已送达').waitFor();
      await page.getByTestId('deliveries-table').getByText('ping').waitFor();
      await page.getByTestId('deliveries-kept').getByText('保留 90 天', { exact: false }).waitFor();

      await page.getByTestId('token-create').click();
      await page.getByTestId('token-submit').click();
      await page.getByTestId('token-form').getByText('请为令牌命名').waitFor();
      await inputOf(page.getByTestId('token-name')).fill('Moka ATS');
      await page.getByTestId('token-submit').click();
      const token = (await page.getByTestId('token-value').textContent())!.trim();
      expect(token).toMatch(/^exh_/);
      await page.getByTestId('token-done').click();
      await page.getByTestId('tokens-table').getByText('Moka ATS').waitFor();
      // Shown once: the page holds it nowhere any more.
      await page.getByTestId('token-value').waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(token);

      const results = () =>
        fetch(`${j.server.baseUrl}/api/v1/results`, { headers: { authorization: `Bearer ${token}` } });
      expect((await results()).status).toBe(200);
      await page.locator('[data-testid^="token-revoke-"]').click();
      await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await page.getByTestId('tokens-table').getByText('还没有 API 令牌').waitFor();
      expect((await results()).status).toBe(401);

      const full = await scanA11y(page);
      expect(full, describeViolations('/admin/integrations with rows', full)).toEqual([]);
      expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    } finally {
      await context.close();
      await receiver.close();
    }
  });
});
