/**
 * Staff sessions in the console: an author signed in on a laptop and on a phone sees both under account security,
 * each named by its browser and system in words, ends the phone's, and the phone is signed out; an admin then ends
 * the author's last session from the account's drawer, and the laptop is signed out too.
 */
import type { StaffView } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';
import { strayTexts } from './support/words.js';

const AUTHOR = { phone: '13700137001', password: 'author-pass-1' };
/** WeChat's browser on an iPhone: the phone's session reads "iOS 上的 微信". */
const WECHAT_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49';

describe.runIf(browserAvailable())('staff sessions in the console', () => {
  const j = useJourney();

  it("ends one's own other session, and an admin ends another's; each ended browser is signed out", async () => {
    const admin = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    const laptop = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    const phoneContext = await j.browser.newContext({
      baseURL: j.server.baseUrl,
      locale: 'zh-CN',
      userAgent: WECHAT_IPHONE,
      viewport: { width: 1280, height: 800 },
    });
    const phone = await phoneContext.newPage();
    try {
      await staffLogin(admin.page, ADMIN, '/admin/staff');
      const author = await staffCall<StaffView>(admin.page, '/admin/staff', {
        ...AUTHOR,
        area_code: '86',
        name: '会话作者',
        role: 'author',
      });
      await staffLogin(laptop.page, AUTHOR, '/admin');
      await staffLogin(phone, AUTHOR, '/admin');

      // The laptop sees both, itself marked, the phone named in words.
      await laptop.page.getByTestId('account-open').click();
      const list = laptop.page.getByTestId('sessions-list');
      await expect.poll(() => list.locator('[data-testid^="session-end-"]').count()).toBe(2);
      await list.getByTestId('session-current').waitFor();
      await list.getByText('iOS 上的 微信').waitFor();
      expect(await strayTexts(laptop.page.getByTestId('sessions-panel'), 'zh-CN')).toEqual([]);
      // The end button is described by the session it ends.
      await laptop.page.getByRole('button', { description: 'iOS 上的 微信' }).click();
      await laptop.page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await expect.poll(() => list.locator('[data-testid^="session-end-"]').count()).toBe(1);

      // The phone's next page is the login.
      await phone.reload();
      await phone.waitForURL(/\/admin\/login/);

      // The admin sees the author's one session in the account's drawer and ends it.
      await admin.page.reload();
      await admin.page.getByTestId(`staff-edit-${author.id}`).click();
      const drawerList = admin.page.locator('.ant-drawer').getByTestId('sessions-list');
      await expect.poll(() => drawerList.locator('[data-testid^="session-end-"]').count()).toBe(1);
      expect(await drawerList.getByTestId('session-current').count()).toBe(0);
      await drawerList.locator('[data-testid^="session-end-"]').click();
      await admin.page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await expect.poll(() => drawerList.locator('[data-testid^="session-end-"]').count()).toBe(0);
      await laptop.page.reload();
      await laptop.page.waitForURL(/\/admin\/login/);
    } finally {
      await phoneContext.close();
      await laptop.context.close();
      await admin.context.close();
    }
  }, 120_000);
});
