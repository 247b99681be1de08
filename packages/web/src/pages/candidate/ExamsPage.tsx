import { ExamMode, type ExamListItem, examCalls } from '@examhall/contract';
import { LogoutOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { serverNow } from '../../exam/clock.js';
import { listView, type ListAction, type OwnState, type WindowState } from '../../exam/listState.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { useLogout, useUserInfo } from '../../session/candidate.js';
import { serverTime } from '../../shell/MaintenanceModal.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';

const MODE_KEYS: Record<ExamListItem['mode'], MessageKey> = {
  [ExamMode.simulate]: 'exams.mode.simulate',
  [ExamMode.exam]: 'exams.mode.exam',
  [ExamMode.longTime]: 'exams.mode.longTime',
};

const MODE_COLORS: Record<ExamListItem['mode'], string> = {
  [ExamMode.simulate]: 'default',
  [ExamMode.exam]: 'blue',
  [ExamMode.longTime]: 'purple',
};

const WINDOW_COLORS: Record<WindowState, string> = { upcoming: 'default', open: 'green', ended: 'default' };
const OWN_COLORS: Record<OwnState, string> = {
  not_taken: 'default',
  in_progress: 'orange',
  submitted: 'cyan',
  absent: 'red',
};
const ACTION_KEYS: Record<NonNullable<ListAction>, MessageKey> = {
  enter: 'exams.enter',
  continue: 'exams.continue',
  result: 'exams.viewResult',
};

/** The candidate's exams. The user-info check comes first; a refused check leads to the login. */
export default function ExamsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('exams.pageTitle'));
  const location = useLocation();
  const user = useUserInfo();
  const logout = useLogout();
  const exams = useQuery({
    queryKey: ['exams', 'index'],
    queryFn: ({ signal }) => request(examCalls.examIndex, { query: { page: 1, page_size: 100 }, signal }),
    enabled: user.isSuccess,
  });

  if (currentAuth() === null && !user.data) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const onLogout = () => logout.mutate();

  return (
    <div className="page-body">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {t('exams.title')}
        </Typography.Title>
        <Space wrap>
          {user.data && (
            <Typography.Text type="secondary" data-testid="user-phone">
              {t('exams.loggedInAs', { phone: user.data.phone })}
            </Typography.Text>
          )}
          <Link to="/profile" data-testid="profile-link">
            {t('exams.profileLink')}
          </Link>
          <Button
            icon={<LogoutOutlined aria-hidden />}
            onClick={onLogout}
            loading={logout.isPending}
            data-testid="logout"
          >
            {t('common.logout')}
          </Button>
        </Space>
      </Flex>

      {user.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: user.error.message })} />}
      {exams.isError && (
        <Alert
          type="error"
          showIcon
          title={t('common.loadFailed', { msg: exams.error.message })}
          action={
            <Button size="small" onClick={() => void exams.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {(user.isPending || exams.isPending) && !user.isError && !exams.isError && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {exams.data && <ExamList items={exams.data.list} total={exams.data.total} />}
    </div>
  );
}

function ExamList({ items, total }: { items: ExamListItem[]; total: number }) {
  const { t } = useI18n();
  if (items.length === 0) {
    return (
      <Card>
        <Empty description={t('exams.empty')} data-testid="exams-empty" />
      </Card>
    );
  }
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('exams.total', { n: total })}</h2>}>
      <ul className="exam-list" data-testid="exam-list">
        {items.map((exam) => (
          <ExamEntry key={`${exam.id}-${exam.anid}`} exam={exam} />
        ))}
      </ul>
    </Card>
  );
}

/** One exam: its facts, the window's state and the candidate's own, and what they can do now. */
function ExamEntry({ exam }: { exam: ExamListItem }) {
  const { t } = useI18n();
  const view = listView(exam, serverNow());
  const to = view.action === 'result' ? `/exam/${exam.id}/${exam.anid}/result` : `/exam/${exam.id}/${exam.anid}`;
  return (
    <li className="exam-item" data-testid="exam-item">
      <Typography.Title level={3} style={{ fontSize: 16, margin: '0 0 8px' }} data-testid="exam-name">
        {exam.name}
      </Typography.Title>
      <dl className="exam-facts">
        <Field label={t('exams.col.mode')}>
          <Tag color={MODE_COLORS[exam.mode]}>{t(MODE_KEYS[exam.mode])}</Tag>
        </Field>
        <Field label={t('exams.col.time')}>{t('common.minutes', { n: exam.time })}</Field>
        <Field label={t('exams.col.window')}>
          {t('exams.windowRange', { from: serverTime(exam.start_at), to: serverTime(exam.end_at) })}{' '}
          <Tag color={WINDOW_COLORS[view.window]} data-testid="exam-window" data-window={view.window}>
            {t(`exams.window.${view.window}`)}
          </Tag>
        </Field>
        <Field label={t('exams.col.state')}>
          <Tag color={OWN_COLORS[view.own]} data-testid="exam-state" data-state={exam.state} data-own={view.own}>
            {t(`exams.own.${view.own}`)}
          </Tag>
        </Field>
      </dl>
      {view.action && (
        <Link to={to} className="exam-enter" data-testid="exam-enter" data-action={view.action}>
          {t(ACTION_KEYS[view.action])}
        </Link>
      )}
    </li>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="exam-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
