import { Space, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, PageTitle } from '../shared/PageTitle.js';
import { CreateStaffForm } from './CreateStaffForm.js';
import { StaffTable } from './StaffTable.js';
import { SsoPanel } from './SsoPanel.js';
import { TeamsPanel } from './TeamsPanel.js';

/** Staff accounts and teams, each on its own tab (the tab is kept in the address). */
export default function StaffPage() {
  const { t } = useI18n();
  useDocumentTitle(t('staff.title'));
  const me = useStaffMe();
  const [params, setParams] = useSearchParams();
  if (me.data && !can(me.data, 'staff.read')) return <Forbidden />;
  const asked = params.get('tab');
  const sso = can(me.data, 'system.manage');
  const tab = asked === 'teams' || (asked === 'sso' && sso) ? asked : 'accounts';
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle title={t('staff.title')} description={t('console.staff.about')} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'accounts' ? {} : { tab: key }, { replace: true })}
        items={[
          {
            key: 'accounts',
            label: t('console.staff.tabAccounts'),
            children: (
              <Space orientation="vertical" size="large" style={{ width: '100%' }}>
                <StaffTable />
                {can(me.data, 'staff.manage') && <CreateStaffForm />}
              </Space>
            ),
          },
          { key: 'teams', label: t('console.staff.tabTeams'), children: <TeamsPanel /> },
          ...(sso ? [{ key: 'sso', label: t('sso.tab'), children: <SsoPanel /> }] : []),
        ]}
      />
    </Space>
  );
}
