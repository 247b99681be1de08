import { api, type ProctorExamsData } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, Space, Table, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';

type ExamItem = ProctorExamsData['list'][number];

/** The proctoring area's start: exams to watch, with attempts, those in progress and flags still open. */
export default function ProctorExamsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('console.proctor.title'));
  const me = useStaffMe();
  const allowed = can(me.data, 'proctor.watch');
  const exams = useQuery({
    queryKey: queryKey(api.proctorExams),
    queryFn: ({ signal }) => request(api.proctorExams, { signal }),
    enabled: allowed,
    refetchInterval: 15_000,
  });
  if (me.data && !allowed) return <Alert type="warning" showIcon title={t('admin.forbidden')} />;

  const columns: TableColumnsType<ExamItem> = [
    {
      title: t('console.proctor.exam'),
      dataIndex: 'name',
      render: (name: string, e) => (
        <Link to={`/admin/proctoring/${e.id}`} data-testid={`proctor-exam-${e.id}`}>
          {name}
        </Link>
      ),
    },
    {
      title: t('console.proctor.window'),
      key: 'window',
      render: (_, e) => `${serverTime(e.start_at)} – ${serverTime(e.end_at)}`,
    },
    { title: t('console.proctor.attempts'), dataIndex: 'attempts' },
    { title: t('console.proctor.inProgress'), dataIndex: 'in_progress' },
    {
      title: t('console.proctor.openFlags'),
      dataIndex: 'open_flags',
      render: (n: number) => <Badge count={n} showZero color={n > 0 ? 'red' : 'green'} overflowCount={999} />,
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('console.proctor.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('admin.area.proctoring')}
      </Typography.Paragraph>
      {exams.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: exams.error.message })} />}
      <Card>
        <div data-testid="proctor-exams">
          <Table<ExamItem>
            rowKey="id"
            columns={columns}
            dataSource={exams.data?.list ?? []}
            loading={exams.isPending && allowed}
            pagination={false}
            scroll={{ x: true }}
          />
        </div>
      </Card>
    </Space>
  );
}
