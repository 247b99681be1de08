/**
 * Single sign-on for staff in Chromium, against a real OpenID provider (oidc-provider) started here with its own
 * login and consent pages, on another site than the console (localhost against 127.0.0.1), as a company's provider
 * is: an admin maps a group to a team in the staff area's Single sign-on tab; an author signs in through the
 * provider's login page and lands in the console in that team, sees the session and how it was signed in to in
 * words; signed in again in a second browser, the author ends the first browser's session there, and the first
 * browser is signed out. An author of a SAML 2.0 provider (made here with its own key, its sign-in page on another
 * site too) signs in through that page, whose response is posted across sites, and lands in the console with a SAML
 * session. The login page with its buttons and with a refused sign-in's reason, and the tab, are checked in both
 * languages by the page auditor.
 */
import { enumText, SIGN_IN_METHOD_TEXTS, type StaffView } from '@examhall/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../packages/server/src/test/oidcProvider.js';
import { makeSamlIdp, type TestSamlIdp } from '../packages/server/src/test/samlIdp.js';
import { browserAvailable, newPage } from './support/browser.js';
import { chooseOption, clickForCall, staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { pageAuditor, TOUR_SETTINGS } from './support/pageAudit.js';
import { ADMIN, freePort } from './support/server.js';

const PROVIDER = 'Corp ID';
const SAML_PROVIDER = 'Corp SAML';
const TEAM = '校招一组';
const GROUP = 'hr-campus';
const AUTHOR = { phone: '13700137002', name: '单点作者' };

describe.runIf(browserAvailable())('single sign-on in the console', () => {
  let idp: TestOidcProvider | undefined;
  let samlIdp: TestSamlIdp | undefined;
  /** The e-mail and groups the SAML provider's page sends for whoever signs in there. */
  const samlUser = { email: 'saml.author@corp.example', groups: [GROUP] };
  const j = useJourney(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    idp = await startOidcProvider(`${publicUrl}/api/admin/auth/oidc/callback`, { pages: true, host: 'localhost' });
    samlIdp = await makeSamlIdp({
      pages: () => ({
        nameId: `persistent-${samlUser.email}`,
        attributes: { email: samlUser.email, displayName: 'SAML 作者', groups: samlUser.groups },
      }),
    });
    return {
      SAML_IDP_SSO_URL: samlIdp.ssoUrl,
      SAML_IDP_ISSUER: samlIdp.entityId,
      SAML_IDP_CERT: samlIdp.key.cert,
      SAML_NAME: SAML_PROVIDER,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_SCOPES: 'openid profile phone groups',
      OIDC_NAME: PROVIDER,
    };
  });
  afterAll(async () => {
    await idp?.close();
    await samlIdp?.close();
  });

  /** The provider's claims for the next sign-in: the author's phone and name, in `groups`. */
  const providerUser = (groups: string[]) => {
    idp!.user = {
      sub: 'typed-at-the-provider',
      claims: { phone_number: `+86${AUTHOR.phone}`, name: AUTHOR.name, groups },
    };
  };

  /**
   * From the staff login page, the single sign-on button, then the provider's own login and consent pages, as a
   * person does; ends where the provider's answer leads the browser.
   */
  const signInAtProvider = async (page: Page, login: string) => {
    await page.goto('/admin/login');
    await page.getByTestId('staff-sso').filter({ hasText: PROVIDER }).click();
    await page.waitForURL((url) => url.origin === idp!.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password the test provider takes');
    await page.locator('button[type="submit"]').click();
    // The consent page: the provider asks once per new grant.
    await page.locator('button[type="submit"]', { hasText: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === j.server.baseUrl);
  };

  /** A browser of its own (cookies, storage) in a language. */
  const browserIn = (browser: Browser, locale: 'zh-CN' | 'en-US') =>
    newPage(browser, j.server.baseUrl, { locale, viewport: { width: 1440, height: 900 } });

  it('an author signs in at the provider into the mapped team, sees the session, ends it from another, and is signed out', async () => {
    const admin = await browserIn(j.browser, 'zh-CN');
    const first = await browserIn(j.browser, 'zh-CN');
    const second = await browserIn(j.browser, 'zh-CN');
    try {
      // The admin maps the provider's group to a team in the Single sign-on tab.
      await staffLogin(admin.page, ADMIN, '/admin/staff?tab=sso');
      const team = await staffCall<{ id: number }>(admin.page, '/admin/teams', { name: TEAM });
      await admin.page.reload();
      const form = admin.page.getByTestId('sso-group-form');
      await form.getByTestId('sso-group-name').fill(GROUP);
      await chooseOption(admin.page, form.getByTestId('sso-group-team'), TEAM);
      await clickForCall(admin.page, form.getByTestId('sso-group-submit'), '/admin/sso/groups');
      await admin.page.getByTestId('sso-groups-table').getByText(GROUP).waitFor();

      // The author signs in through the provider's own pages and lands in the console, in the team.
      providerUser([GROUP, 'everyone']);
      await signInAtProvider(first.page, 'author@corp.example');
      await first.page.getByTestId('admin-console').waitFor();
      const me = (await (await first.page.request.get('/api/admin/auth/me')).json()) as { data: StaffView };
      expect(me.data).toMatchObject({ phone: AUTHOR.phone, name: AUTHOR.name, role: 'author', team_id: team.id });
      await first.page.getByTestId('staff-identity').getByText(AUTHOR.name).waitFor();

      // The account dialog shows the session, the current one, signed in to by single sign-on, in words.
      await first.page.getByTestId('account-open').click();
      const firstList = first.page.getByTestId('sessions-list');
      await expect.poll(() => firstList.locator('[data-testid^="session-end-"]').count()).toBe(1);
      await firstList.getByTestId('session-current').waitFor();
      await firstList.getByText(enumText(SIGN_IN_METHOD_TEXTS, 'oidc', 'zh-CN')).waitFor();
      const firstSession = (await firstList.locator('[data-testid^="session-end-"]').getAttribute('data-testid'))!;

      // Signed in the same way in a second browser, the author ends the first browser's session there.
      await signInAtProvider(second.page, 'author@corp.example');
      await second.page.getByTestId('admin-console').waitFor();
      await second.page.getByTestId('account-open').click();
      const secondList = second.page.getByTestId('sessions-list');
      await expect.poll(() => secondList.locator('[data-testid^="session-end-"]').count()).toBe(2);
      await secondList.getByTestId(firstSession).click();
      await second.page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await expect.poll(() => secondList.locator('[data-testid^="session-end-"]').count()).toBe(1);
      await secondList.getByTestId('session-current').waitFor();

      // The first browser is signed out: its next page is the login.
      await first.page.reload();
      await first.page.waitForURL(/\/admin\/login/);
      await first.page.getByTestId('staff-login-form').waitFor();
      // The provider's pages load a web font from the internet, which a test machine may not reach.
      for (const b of [admin, first, second]) {
        expect(b.consoleErrors.filter((e) => !/status of 4\d\d|ERR_NAME_NOT_RESOLVED/.test(e))).toEqual([]);
      }
    } finally {
      await Promise.all([admin.context.close(), first.context.close(), second.context.close()]);
    }
  }, 120_000);

  it("signs in through the SAML provider's page: its response posted from another site lands in the console with a SAML session", async () => {
    const { context, page, consoleErrors } = await browserIn(j.browser, 'en-US');
    try {
      await page.goto('/admin/login?redirect=%2Fadmin%2Fexams');
      await page.getByRole('link', { name: `Sign in with ${SAML_PROVIDER}` }).click();
      await page.waitForURL((url) => url.href.startsWith(samlIdp!.ssoUrl));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('admin-console').waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/exams');
      const me = (await (await page.request.get('/api/admin/auth/me')).json()) as { data: StaffView };
      expect(me.data).toMatchObject({ phone: samlUser.email, role: 'author', team_name: TEAM });
      await page.getByTestId('account-open').click();
      const list = page.getByTestId('sessions-list');
      await list.getByTestId('session-current').waitFor();
      await list.getByText(enumText(SIGN_IN_METHOD_TEXTS, 'saml', 'en-US')).waitFor();

      expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  for (const setting of TOUR_SETTINGS.filter((s) => s.full)) {
    it(`the login page's button, a refused sign-in's reason and the Single sign-on tab read well in ${setting.lang}`, async () => {
      const expected = {
        'zh-CN': { button: `使用 ${PROVIDER} 登录`, refused: '你在身份提供方的群组都没有对应本站的团队，请联系管理员' },
        'en-US': {
          button: `Sign in with ${PROVIDER}`,
          refused: 'None of your groups at the identity provider is mapped to a team here; ask an admin',
        },
      }[setting.lang];
      // The first admin's name is the server's default (data, like the names people enter).
      const auditor = pageAuditor(setting, 'sso', [
        PROVIDER,
        SAML_PROVIDER,
        TEAM,
        GROUP,
        idp!.issuer,
        samlIdp!.entityId,
        'Administrator',
      ]);
      const visitor = await newPage(j.browser, j.server.baseUrl, { locale: setting.lang, viewport: setting.viewport });
      const admin = await newPage(j.browser, j.server.baseUrl, { locale: setting.lang, viewport: setting.viewport });
      try {
        await visitor.page.goto('/admin/login');
        await visitor.page.getByRole('link', { name: expected.button }).waitFor();
        await auditor.stop(visitor.page, 'login');

        // Groups nobody mapped: the provider vouches for the person, and the console refuses them, saying why.
        providerUser(['a-group-nobody-mapped']);
        await signInAtProvider(visitor.page, 'outsider@corp.example');
        await visitor.page.waitForURL(/\/admin\/login\?sso_error=sso_no_mapped_team$/);
        await expect.poll(() => visitor.page.getByTestId('sso-error').textContent()).toBe(expected.refused);
        await auditor.stop(visitor.page, 'login-refused');

        await staffLogin(admin.page, ADMIN, '/admin/staff?tab=sso');
        await admin.page.getByTestId('sso-panel').getByText(idp!.issuer).waitFor();
        await admin.page.getByTestId('sso-groups-table').getByText(GROUP).waitFor();
        await auditor.stop(admin.page, 'sso-tab');
        expect(auditor.found, auditor.found.join('\n')).toEqual([]);
      } finally {
        await Promise.all([visitor.context.close(), admin.context.close()]);
      }
    }, 120_000);
  }
});
