import type { EditorExamDetail, ExamVersionView } from '@examhall/contract';
import { Empty, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useStaffList } from '../staff/queries.js';

/** The exam's published versions, newest first: when, by whom, how many questions and attempts each. */
export function VersionsPanel({ detail }: { detail: EditorExamDetail }) {
  const { t } = useI18n();
  const staff = useStaffList();
  const nameOf = (id: number | null) =>
    id === null ? '–' : (staff.data?.list.find((s) => s.id === id)?.name ?? `#${id}`);
  const columns: TableColumnsType<ExamVersionView> = [
    {
      title: t('console.exams.versionCol'),
      dataIndex: 'number',
      render: (n: number, v) => (
        <>
          {t('console.exams.version', { n })}{' '}
          {v.id === detail.published_version_id && <Tag color="green">{t('console.exams.current')}</Tag>}
        </>
      ),
    },
    { title: t('console.exams.publishedAt'), dataIndex: 'published_at', render: (ms: number) => serverTime(ms) },
    { title: t('console.exams.publishedBy'), dataIndex: 'published_by', render: (id: number | null) => nameOf(id) },
    { title: t('console.exams.questionsFrozen'), dataIndex: 'questions' },
    { title: t('console.exams.perCandidate'), dataIndex: 'per_candidate' },
    { title: t('console.exams.attempts'), dataIndex: 'attempts' },
  ];
  return (
    <div data-testid="exam-versions">
      <Typography.Paragraph type="secondary">{t('console.exams.versionsHint')}</Typography.Paragraph>
      <Table<ExamVersionView>
        rowKey="id"
        columns={columns}
        dataSource={detail.versions}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description={t('console.exams.noVersions')} /> }}
      />
    </div>
  );
}
