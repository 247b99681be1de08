import { STAFF_ROLES, type StaffRole, type StaffView, enumOptions, ROLE_TEXTS, enumText } from '@examhall/contract';
import { App, Button, Card, Empty, Input, Popconfirm, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { EditStaffDrawer } from './EditStaffDrawer.js';
import { ResetPasswordModal } from './ResetPasswordModal.js';
import { useResetStaffTotp, useStaffList, useTeams, useUpdateStaff } from './queries.js';

/** Filters of the staff table (the list is small, so it is filtered in the page). */
interface StaffFilter {
  text: string;
  role: StaffRole | undefined;
  team: number | 'none' | undefined;
  status: 'active' | 'disabled' | undefined;
}

/** True when an account matches the filters. */
export function matchesStaff(s: StaffView, f: StaffFilter): boolean {
  const text = f.text.trim().toLowerCase();
  if (text && !s.name.toLowerCase().includes(text) && !s.phone.includes(text)) return false;
  if (f.role && s.role !== f.role) return false;
  if (f.team === 'none' && s.team_id !== null) return false;
  if (typeof f.team === 'number' && s.team_id !== f.team) return false;
  if (f.status === 'active' && s.disabled) return false;
  if (f.status === 'disabled' && !s.disabled) return false;
  return true;
}

/** The staff accounts with filters, and for those who manage staff: edit, reset password or second factor, disable. */
export function StaffTable() {
  const { t, lang } = useI18n();
  const me = useStaffMe();
  const list = useStaffList();
  const teams = useTeams();
  const manage = can(me.data, 'staff.manage');
  const [filter, setFilter] = useState<StaffFilter>({ text: '', role: undefined, team: undefined, status: undefined });
  const [editing, setEditing] = useState<StaffView | null>(null);
  const [resetting, setResetting] = useState<StaffView | null>(null);
  const rows = useMemo(() => (list.data?.list ?? []).filter((s) => matchesStaff(s, filter)), [list.data, filter]);
  const filtered = filter.text !== '' || filter.role || filter.team !== undefined || filter.status;

  const columns: TableColumnsType<StaffView> = [
    { title: t('staff.col.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
    { title: t('staff.col.phone'), dataIndex: 'phone' },
    {
      title: t('staff.col.role'),
      dataIndex: 'role',
      render: (role: StaffRole) => enumText(ROLE_TEXTS, role, lang),
      sorter: (a, b) => STAFF_ROLES.indexOf(a.role) - STAFF_ROLES.indexOf(b.role),
    },
    {
      title: t('console.staff.col.team'),
      dataIndex: 'team_name',
      render: (name: string | null) => name ?? <Tag>{t('console.staff.noTeam')}</Tag>,
      sorter: (a, b) => (a.team_name ?? '').localeCompare(b.team_name ?? ''),
    },
    {
      title: t('staff.col.created'),
      dataIndex: 'created_at',
      render: (ms: number) => serverTime(ms),
      sorter: (a, b) => a.created_at - b.created_at,
    },
    {
      title: t('staff.col.status'),
      dataIndex: 'disabled',
      render: (disabled: boolean) =>
        disabled ? <Tag>{t('staff.status.disabled')}</Tag> : <Tag color="green">{t('staff.status.active')}</Tag>,
    },
  ];
  if (manage) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => setEditing(s)} data-testid={`staff-edit-${s.id}`}>
            {t('console.common.edit')}
          </Button>
          <Button size="small" onClick={() => setResetting(s)} data-testid={`staff-reset-${s.id}`}>
            {t('console.staff.resetPassword')}
          </Button>
          {s.totp_enabled && s.id !== me.data?.id && <ResetTotpButton staff={s} />}
          <DisableButton staff={s} self={s.id === me.data?.id} />
        </Space>
      ),
    });
  }

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('console.staff.search')}
          aria-label={t('console.staff.search')}
          onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
          // Wide enough for the whole hint in English ("Search by name or phone").
          style={{ width: 260 }}
          data-testid="staff-search"
        />
        <Select<StaffRole>
          allowClear
          placeholder={t('staff.col.role')}
          aria-label={t('staff.col.role')}
          style={{ width: 140 }}
          value={filter.role}
          onChange={(role) => setFilter((f) => ({ ...f, role }))}
          options={enumOptions(ROLE_TEXTS, STAFF_ROLES, lang)}
        />
        <Select<number | 'none'>
          allowClear
          placeholder={t('console.staff.col.team')}
          aria-label={t('console.staff.col.team')}
          style={{ width: 180 }}
          value={filter.team}
          onChange={(team) => setFilter((f) => ({ ...f, team }))}
          options={[
            { value: 'none' as const, label: t('console.staff.noTeam') },
            ...(teams.data?.list ?? []).map((tm) => ({ value: tm.id, label: tm.name })),
          ]}
        />
        <Select<'active' | 'disabled'>
          allowClear
          placeholder={t('staff.col.status')}
          aria-label={t('staff.col.status')}
          style={{ width: 120 }}
          value={filter.status}
          onChange={(status) => setFilter((f) => ({ ...f, status }))}
          options={[
            { value: 'active', label: t('staff.status.active') },
            { value: 'disabled', label: t('staff.status.disabled') },
          ]}
        />
      </Space>
      <LoadError error={list.error} />
      <div data-testid="staff-table">
        <Table<StaffView>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          scroll={{ x: true }}
          locale={{
            emptyText: <Empty description={filtered ? t('console.common.noMatch') : t('console.staff.empty')} />,
          }}
        />
      </div>
      <EditStaffDrawer staff={editing} onClose={() => setEditing(null)} />
      <ResetPasswordModal staff={resetting} onClose={() => setResetting(null)} />
    </Card>
  );
}

/**
 * Turns another account's second factor off after a confirmation, for someone who lost their authenticator: their
 * sessions end and they sign in with the password alone. One's own is turned off on the two-factor page instead.
 */
function ResetTotpButton({ staff }: { staff: StaffView }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const reset = useResetStaffTotp();
  return (
    <Popconfirm
      title={t('console.staff.resetTotpTitle', { name: staff.name })}
      description={t('console.staff.resetTotpBody')}
      okText={t('console.staff.resetTotp')}
      okButtonProps={{ danger: true, 'data-testid': `staff-reset-totp-confirm-${staff.id}` }}
      cancelText={t('console.common.cancel')}
      onConfirm={() =>
        reset.mutate(staff.id, {
          onSuccess: () => void message.success(t('console.staff.totpReset', { name: staff.name })),
          onError: (e) => void message.error(errorText(e)),
        })
      }
    >
      <Button size="small" danger loading={reset.isPending} data-testid={`staff-reset-totp-${staff.id}`}>
        {t('console.staff.resetTotp')}
      </Button>
    </Popconfirm>
  );
}

/** Disables an account after a confirmation (its sessions end at once), or enables it again. */
function DisableButton({ staff, self }: { staff: StaffView; self: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const update = useUpdateStaff();
  const toggle = () =>
    update.mutate(
      { id: staff.id, disabled: !staff.disabled },
      {
        onSuccess: () =>
          void message.success(
            staff.disabled
              ? t('console.staff.enabled', { name: staff.name })
              : t('console.staff.disabled', { name: staff.name }),
          ),
        onError: (e) => void message.error(errorText(e)),
      },
    );
  if (staff.disabled) {
    return (
      <Button size="small" loading={update.isPending} onClick={toggle} data-testid={`staff-enable-${staff.id}`}>
        {t('console.staff.enable')}
      </Button>
    );
  }
  return (
    <Popconfirm
      title={t('console.staff.disableTitle', { name: staff.name })}
      description={t('console.staff.disableBody')}
      okText={t('console.staff.disable')}
      okButtonProps={{ danger: true }}
      cancelText={t('console.common.cancel')}
      onConfirm={toggle}
      disabled={self}
    >
      <Button
        size="small"
        danger
        disabled={self}
        title={self ? t('console.staff.notSelf') : undefined}
        loading={update.isPending}
        data-testid={`staff-disable-${staff.id}`}
      >
        {t('console.staff.disable')}
      </Button>
    </Popconfirm>
  );
}
