import { enumText, ROLE_TEXTS } from '@examhall/contract';
import { HomeOutlined, LogoutOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useI18n } from '../../i18n/index.js';
// The console's texts load with the console.
import '../../i18n/console.js';
import { can, useStaffLogout, useStaffMe } from '../../session/staff.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';
import { SessionsPanel } from './account/SessionsPanel.js';
import { TotpPanel } from './account/TotpPanel.js';
import { CONSOLE_AREAS } from './consoleAreas.js';

/** The console frame: sidebar of areas the role may see, the account in the header, logout. */
export default function AdminFrame() {
  const { t, lang } = useI18n();
  const me = useStaffMe();
  const logout = useStaffLogout();
  const { pathname } = useLocation();
  const [totpOpen, setTotpOpen] = useState(false);

  if (!me.data) {
    // A 401 has already sent the browser to the staff login; other failures are shown.
    return (
      <Flex100>
        {me.isError ? (
          <Typography.Text type="danger">{t('common.loadFailed', { msg: me.error.message })}</Typography.Text>
        ) : (
          <Spin />
        )}
      </Flex100>
    );
  }
  const staff = me.data;
  const areas = CONSOLE_AREAS.filter((a) => can(staff, a.permission));
  const selected =
    pathname === '/admin' || pathname === '/admin/'
      ? 'home'
      : areas.find((a) => pathname === `/admin/${a.path}` || pathname.startsWith(`/admin/${a.path}/`))?.path;

  const onLogout = () => logout.mutate();

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="admin-console">
      <a className="skip-link" href="#console-main">
        {t('common.skipToContent')}
      </a>
      <Layout.Sider breakpoint="lg" collapsedWidth={0} width={220}>
        <div className="admin-brand">{t('app.name')}</div>
        <nav aria-label={t('admin.nav')}>
          <Menu
            theme="dark"
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            items={[
              {
                key: 'home',
                icon: <HomeOutlined aria-hidden />,
                label: (
                  <NavLink to="/admin" end data-testid="nav-home">
                    {t('console.home.title')}
                  </NavLink>
                ),
              },
              ...areas.map((a) => ({
                key: a.path,
                icon: a.icon,
                label: (
                  <NavLink to={`/admin/${a.path}`} data-testid={`nav-${a.path}`}>
                    {t(a.label)}
                  </NavLink>
                ),
              })),
            ]}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header className="page-header">
          <Typography.Text strong>{t('admin.console')}</Typography.Text>
          <Space wrap>
            <span data-testid="staff-identity">
              <Typography.Text>{staff.name}</Typography.Text>{' '}
              <Tag color="blue" data-testid="staff-role">
                {enumText(ROLE_TEXTS, staff.role, lang)}
              </Tag>
            </span>
            <LanguageSwitch />
            <Button icon={<SafetyOutlined aria-hidden />} onClick={() => setTotpOpen(true)} data-testid="account-open">
              {t('admin.account.open')}
            </Button>
            <Button
              icon={<LogoutOutlined aria-hidden />}
              onClick={onLogout}
              loading={logout.isPending}
              data-testid="staff-logout"
            >
              {t('common.logout')}
            </Button>
          </Space>
        </Layout.Header>
        {/* antd's Content is the page's one <main>. */}
        <Layout.Content id="console-main" tabIndex={-1} style={{ padding: 24 }}>
          {/* The server refuses every other call until the account has enrolled: lead it there. */}
          {staff.totp_enrolment_required ? <TotpPanel staff={staff} /> : <Outlet />}
          <Modal
            open={totpOpen && !staff.totp_enrolment_required}
            onCancel={() => setTotpOpen(false)}
            footer={null}
            destroyOnHidden
            title={t('admin.account.title')}
            width={720}
          >
            <TotpPanel staff={staff} />
            <SessionsPanel />
          </Modal>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

function Flex100({ children }: { children: React.ReactNode }) {
  return <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>{children}</div>;
}
