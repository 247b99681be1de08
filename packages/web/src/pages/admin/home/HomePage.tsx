import { api, type HomeOpenExam } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Space, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';

/** Query key of the console home's counts. */
export const HOME_KEY = queryKey(api.consoleHome);

/** The console's start: what needs attention now, each with a link to where it is dealt with. */
export default function HomePage() {
  const { t } = useI18n();
  useDocumentTitle(t('console.home.title'));
  const me = useStaffMe();
  const allowed = can(me.data, 'exam.read');
  const home = useQuery({
    queryKey: HOME_KEY,
    queryFn: ({ signal }) => request(api.consoleHome, { signal }),
    enabled: allowed,
    refetchInterval: 30_000,
  });
  if (me.data && !allowed) return <Forbidden />;
  const data = home.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="console-home">
      <PageTitle
        title={t('console.home.title')}
        description={me.data ? t('console.home.greeting', { name: me.data.name }) : undefined}
      />
      <LoadError error={home.error} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Attention
            testId="home-open-exams"
            title={t('console.home.openExams')}
            value={data?.open_exams.length}
            hint={t('console.home.openExamsHint')}
            link={
              can(me.data, 'proctor.watch') ? { to: '/admin/proctoring', text: t('console.home.toProctoring') } : null
            }
          />
        </Col>
        <Col xs={24} md={8}>
          <Attention
            testId="home-pending-flags"
            title={t('console.home.pendingFlags')}
            value={data?.pending_flags}
            alert={(data?.pending_flags ?? 0) > 0}
            hint={t('console.home.pendingFlagsHint')}
            link={can(me.data, 'proctor.decide') ? { to: '/admin/proctoring', text: t('console.home.review') } : null}
          />
        </Col>
        <Col xs={24} md={8}>
          <Attention
            testId="home-ungraded"
            title={t('console.home.ungraded')}
            value={data?.ungraded_answers}
            alert={(data?.ungraded_answers ?? 0) > 0}
            hint={t('console.home.ungradedHint')}
            link={can(me.data, 'grade.score') ? { to: '/admin/grading', text: t('console.home.toGrading') } : null}
          />
        </Col>
        {(data?.flagged_questions ?? 0) > 0 && me.data && (
          <Col xs={24} md={8}>
            <Attention
              testId="home-flagged-questions"
              title={t('analysis.home.flagged')}
              value={data?.flagged_questions}
              alert
              hint={t('analysis.home.flaggedHint')}
              link={
                can(me.data, 'bank.read')
                  ? { to: `/admin/questions?author=${me.data.id}&flagged=1`, text: t('analysis.home.toBank') }
                  : null
              }
            />
          </Col>
        )}
      </Row>
      <OpenExams exams={data?.open_exams} loading={home.isPending && allowed} />
      <QuickLinks />
    </Space>
  );
}

/** One count that may need someone, with what it means and where to act on it. */
function Attention(props: {
  testId: string;
  title: string;
  value: number | undefined;
  alert?: boolean;
  hint: string;
  link: { to: string; text: string } | null;
}) {
  return (
    <Card style={{ height: '100%' }} data-testid={props.testId}>
      <Statistic
        title={props.title}
        value={props.value ?? '–'}
        styles={{ content: props.alert ? { color: '#b42318' } : undefined }}
      />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        {props.hint}
      </Typography.Paragraph>
      {props.link && <Link to={props.link.to}>{props.link.text}</Link>}
    </Card>
  );
}

/** The exams open now, closing soonest first, with their running and submitted attempts. */
function OpenExams({ exams, loading }: { exams: HomeOpenExam[] | undefined; loading: boolean }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const me = useStaffMe();
  const columns: TableColumnsType<HomeOpenExam> = [
    {
      title: t('console.exams.col.name'),
      dataIndex: 'name',
      render: (name: string, e) =>
        can(me.data, 'exam.manage') ? <Link to={`/admin/exams/${e.id}`}>{name}</Link> : name,
    },
    { title: t('console.home.closes'), dataIndex: 'end_at', render: (ms: number) => serverTime(ms) },
    { title: t('console.home.running'), dataIndex: 'running' },
    { title: t('console.home.attempts'), dataIndex: 'attempts' },
    {
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, e) =>
        can(me.data, 'proctor.watch') ? (
          <Link to={`/admin/proctoring/${e.id}`} data-testid={`home-watch-${e.id}`}>
            {t('console.home.watch')}
          </Link>
        ) : null,
    },
  ];
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.home.openNow')}</h2>}>
      <Table<HomeOpenExam>
        rowKey="id"
        columns={columns}
        dataSource={exams ?? []}
        loading={loading}
        pagination={false}
        scroll={{ x: true }}
        locale={{
          emptyText: (
            <Empty description={t('console.home.noneOpen')}>
              {can(me.data, 'exam.manage') && (
                <Button type="primary" onClick={() => void navigate('/admin/exams')}>
                  {t('console.home.toExams')}
                </Button>
              )}
            </Empty>
          ),
        }}
      />
    </Card>
  );
}

/** Where the role's work starts: the bank, the exams, the log. */
function QuickLinks() {
  const { t } = useI18n();
  const me = useStaffMe();
  const links = [
    { to: '/admin/questions', text: t('console.home.linkBank'), show: can(me.data, 'bank.read') },
    { to: '/admin/exams', text: t('console.home.linkExams'), show: can(me.data, 'exam.read') },
    { to: '/admin/staff', text: t('console.home.linkStaff'), show: can(me.data, 'staff.read') },
    { to: '/admin/audit', text: t('console.home.linkAudit'), show: can(me.data, 'audit.read') },
  ].filter((l) => l.show);
  if (links.length === 0) return null;
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.home.startHere')}</h2>}>
      <Space wrap size="large">
        {links.map((l) => (
          <Link key={l.to} to={l.to}>
            {l.text}
          </Link>
        ))}
      </Space>
    </Card>
  );
}
