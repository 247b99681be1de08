import { type ExamListItem, examCalls } from '@examhall/contract';
import { LogoutOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { serverNow } from '../../exam/clock.js';
import { groupExams } from '../../exam/listState.js';
import { useI18n } from '../../i18n/index.js';
import { useLogout, useUserInfo } from '../../session/candidate.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { ExamEntry } from './exams/ExamEntry.js';

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
  const now = useServerNow();
  if (items.length === 0) {
    return (
      <Card>
        <Empty description={t('exams.empty')} data-testid="exams-empty" />
      </Card>
    );
  }
  const groups = groupExams(items, now);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('exams.total', { n: total })}</Typography.Text>
      {GROUPS.filter((g) => g !== 'finished' || groups.finished.length > 0).map((g) => (
        <Card
          key={g}
          title={<h2 style={{ fontSize: 16, margin: 0 }}>{t(`exams.group.${g}`)}</h2>}
          data-testid={`exam-group-${g}`}
        >
          {groups[g].length === 0 ? (
            <Typography.Text type="secondary">
              {g === 'upcoming' ? t('exams.group.emptyUpcoming') : t('exams.group.emptyOpen')}
            </Typography.Text>
          ) : (
            <ul className="exam-list" data-testid="exam-list">
              {groups[g].map((exam) => (
                <ExamEntry key={`${exam.id}-${exam.anid}`} exam={exam} now={now} />
              ))}
            </ul>
          )}
        </Card>
      ))}
    </Space>
  );
}

/** The groups shown; a finished group with nothing in it is left out. */
const GROUPS = ['open', 'upcoming', 'finished'] as const;

/** The server's time, re-read every second (countdowns, groups moving as windows open and close). */
function useServerNow(): number {
  const [now, setNow] = useState(() => serverNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
