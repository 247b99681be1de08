import type { ImportedQuestion } from '@examhall/contract';
import { Space, Table, Tag, Tooltip } from 'antd';
import { useI18n } from '../../../../i18n/index.js';
import { kindLabel } from '../../../../questions/labels.js';
import { CandidateView } from './CandidateView.js';

/** The answer key in a few characters: the right options, the accepted blanks, or the scores. */
export function keySummary(q: ImportedQuestion['question']): string {
  const key = q.key as Record<string, unknown>;
  if (typeof key.option === 'string') return key.option;
  if (Array.isArray(key.options)) return key.options.join(', ');
  if (Array.isArray(key.blanks)) return (key.blanks as string[][]).map((b) => b.join(' / ')).join('; ');
  if (key.scores && typeof key.scores === 'object') {
    return Object.entries(key.scores as Record<string, number>)
      .map(([id, score]) => `${id}:${score}`)
      .join(' ');
  }
  return '—';
}

/** Every question of a file as it will be stored; a row opens to the question as candidates see it. */
export function ImportPreviewTable({ questions, folderPath }: { questions: ImportedQuestion[]; folderPath: string }) {
  const { t, lang } = useI18n();
  return (
    <Table<ImportedQuestion>
      size="small"
      rowKey="index"
      dataSource={questions}
      pagination={questions.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      data-testid="import-preview"
      scroll={{ x: 'max-content' }}
      onRow={(q) =>
        ({ 'data-testid': 'import-row', 'data-valid': String(q.valid) }) as React.HTMLAttributes<HTMLElement>
      }
      expandable={{ expandedRowRender: (q) => <CandidateView subject={q.subject} /> }}
      columns={[
        { title: '#', dataIndex: 'index', width: 48 },
        {
          title: t('console.import.kind'),
          dataIndex: 'kind',
          width: 100,
          render: (_: unknown, q) => kindLabel(q.kind, lang),
        },
        {
          title: t('console.import.stem'),
          dataIndex: 'stem',
          // The widest column: the others keep their widths and the table scrolls rather than squeeze it.
          width: 320,
          render: (_: unknown, q) => (
            <Space size={4} wrap>
              <span>{q.stem.length > 80 ? `${q.stem.slice(0, 79)}…` : q.stem}</span>
              {!q.valid && <Tag color="red">{t('console.import.invalid')}</Tag>}
              {q.duplicates.length > 0 && (
                <Tooltip
                  title={t('console.import.duplicateOf', { ids: q.duplicates.map((d) => `#${d.id}`).join(', ') })}
                >
                  <Tag color="orange" data-testid="import-duplicate">
                    {t('console.import.duplicate')}
                  </Tag>
                </Tooltip>
              )}
            </Space>
          ),
        },
        { title: t('console.import.key'), width: 100, render: (_: unknown, q) => keySummary(q.question) },
        {
          title: t('console.import.folder'),
          width: 140,
          render: (_: unknown, q) => [folderPath, ...q.folder].filter(Boolean).join(' / '),
        },
        {
          title: t('console.import.tags'),
          width: 120,
          render: (_: unknown, q) => q.tags.map((tag) => <Tag key={tag}>{tag}</Tag>),
        },
      ]}
    />
  );
}
