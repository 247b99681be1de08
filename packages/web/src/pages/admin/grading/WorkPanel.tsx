import type { GradingItemData, LanguageId } from '@examhall/contract';
import { Card, Empty, List, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { lazy, Suspense } from 'react';
import { Html } from '../../../exam/questions/Html.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';

const CodeEditor = lazy(() => import('../../../exam/questions/CodeEditor.js'));

type Run = GradingItemData['runs'][number];

/** Code shown highlighted and read-only, in the exam's own editor. */
function CodeView({ language, code, label }: { language: LanguageId; code: string; label: string }) {
  return (
    <Suspense fallback={<Spin />}>
      <CodeEditor language={language} code={code} onChange={() => {}} onPasteBlocked={null} label={label} readOnly />
    </Suspense>
  );
}

/** The judge's runs of the candidate's code on this question. */
function Runs({ runs }: { runs: Run[] }) {
  const { t } = useI18n();
  const columns: TableColumnsType<Run> = [
    { title: t('console.grading.run.mode'), dataIndex: 'mode', render: (m: string) => <Tag>{m}</Tag> },
    { title: t('console.grading.run.verdict'), dataIndex: 'verdict', render: (v: string | null) => v ?? '…' },
    {
      title: t('console.grading.run.passed'),
      key: 'passed',
      render: (_, r) => (r.passed === null ? '–' : `${r.passed} / ${r.total}`),
    },
    { title: t('console.grading.run.time'), dataIndex: 'created_at', render: (at: number) => serverTime(at) },
  ];
  return (
    <Table<Run>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={runs}
      pagination={false}
      data-testid="item-runs"
      expandable={{
        expandedRowRender: (r) => (
          <CodeView language={r.language as LanguageId} code={r.source} label={t('console.grading.runs')} />
        ),
      }}
    />
  );
}

/** The candidate's side of an answer: rich text (sanitized by the server when saved), files, code and runs. */
export function WorkPanel({ item }: { item: GradingItemData }) {
  const { t } = useI18n();
  const answer = item.answer;
  return (
    <Card title={t('console.grading.work')} data-testid="grading-work">
      {!answer && <Empty description={t('console.grading.noAnswer')} />}
      {answer?.kind === 'text' && <Html html={answer.html} className="answer-html" />}
      {answer?.kind === 'code' && (
        <div data-testid="item-code" data-language={answer.language}>
          <Typography.Text type="secondary">{answer.language}</Typography.Text>
          <CodeView language={answer.language} code={answer.code} label={t('console.grading.work')} />
        </div>
      )}
      {item.files.length > 0 && (
        <List
          header={t('console.grading.files')}
          dataSource={item.files}
          renderItem={(f) => (
            <List.Item>
              <a href={f.url} target="_blank" rel="noreferrer">
                {f.key.split('/').pop()}
              </a>
            </List.Item>
          )}
        />
      )}
      {item.runs.length > 0 && (
        <>
          <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>
            {t('console.grading.runs')}
          </Typography.Title>
          <Runs runs={item.runs} />
        </>
      )}
    </Card>
  );
}
