import { api, CreateTeamBody, type TeamView } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Space, Table, Typography, type TableColumnsType } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { zodRule } from '../shared/zodRule.js';
import { STAFF_LIST_KEY, TEAMS_KEY, useTeams } from './queries.js';

/** Teams: the list with their members and exams, a form to create one, and renaming in place. */
export function TeamsPanel() {
  const { t } = useI18n();
  const me = useStaffMe();
  const teams = useTeams();
  const manage = can(me.data, 'team.manage');
  const [renaming, setRenaming] = useState<number | null>(null);
  const columns: TableColumnsType<TeamView> = [
    {
      title: t('console.teams.col.name'),
      dataIndex: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (name: string, team) =>
        renaming === team.id ? <RenameTeam team={team} onDone={() => setRenaming(null)} /> : name,
    },
    {
      title: t('console.teams.col.members'),
      dataIndex: 'member_count',
      sorter: (a, b) => a.member_count - b.member_count,
    },
    { title: t('console.teams.col.exams'), dataIndex: 'exam_count', sorter: (a, b) => a.exam_count - b.exam_count },
    { title: t('staff.col.created'), dataIndex: 'created_at', render: (ms: number) => serverTime(ms) },
  ];
  if (manage) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, team) =>
        renaming === team.id ? null : (
          <Button size="small" onClick={() => setRenaming(team.id)} data-testid={`team-rename-${team.id}`}>
            {t('console.teams.rename')}
          </Button>
        ),
    });
  }
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card>
        <Typography.Paragraph type="secondary">{t('console.teams.about')}</Typography.Paragraph>
        <LoadError error={teams.error} />
        <div data-testid="teams-table">
          <Table<TeamView>
            rowKey="id"
            columns={columns}
            dataSource={teams.data?.list ?? []}
            loading={teams.isPending}
            pagination={false}
            scroll={{ x: true }}
            locale={{
              emptyText: <Empty description={t(manage ? 'console.teams.emptyManage' : 'console.teams.empty')} />,
            }}
          />
        </div>
      </Card>
      {manage && <CreateTeamForm />}
    </Space>
  );
}

function CreateTeamForm() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string }>();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (name: string) => request(api.teamCreate, { body: { name } }),
    onSuccess: (team) => {
      form.resetFields();
      void message.success(t('console.teams.created', { name: team.name }));
      void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
    },
    onError: (e) => setError(errorText(e)),
  });
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.teams.createTitle')}</h2>}>
      <Form
        form={form}
        layout="inline"
        onFinish={(v) => create.mutate(v.name.trim())}
        onValuesChange={() => setError(null)}
        data-testid="team-create-form"
      >
        <Form.Item
          name="name"
          label={t('console.teams.col.name')}
          rules={[zodRule(CreateTeamBody.shape.name, t('console.teams.nameRule'))]}
        >
          <Input maxLength={60} style={{ width: 240 }} data-testid="team-create-name" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="team-create-submit">
          {t('console.teams.create')}
        </Button>
      </Form>
      {error && (
        <Typography.Paragraph type="danger" role="alert" style={{ marginTop: 8 }} data-testid="team-create-error">
          {error}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** Renames a team in its row: Enter saves, Escape cancels. */
function RenameTeam({ team, onDone }: { team: TeamView; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState(team.name);
  const rename = useMutation({
    mutationFn: () => request(api.teamUpdate, { body: { id: team.id, name: name.trim() } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
      // Account rows show their team's name.
      void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY });
      onDone();
    },
  });
  const valid = CreateTeamBody.shape.name.safeParse(name).success;
  return (
    <Space orientation="vertical" size={2}>
      <Space.Compact>
        <Input
          size="small"
          value={name}
          autoFocus
          maxLength={60}
          aria-label={t('console.teams.col.name')}
          status={valid ? undefined : 'error'}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onDone();
            if (e.key === 'Enter' && valid) rename.mutate();
          }}
          data-testid={`team-rename-input-${team.id}`}
        />
        <Button
          size="small"
          type="primary"
          disabled={!valid}
          loading={rename.isPending}
          onClick={() => rename.mutate()}
        >
          {t('console.common.save')}
        </Button>
        <Button size="small" onClick={onDone}>
          {t('console.common.cancel')}
        </Button>
      </Space.Compact>
      {!valid && <Typography.Text type="danger">{t('console.teams.nameRule')}</Typography.Text>}
      {rename.isError && <Typography.Text type="danger">{errorText(rename.error)}</Typography.Text>}
    </Space>
  );
}
