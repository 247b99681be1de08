import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { api, QUESTION_POINTS_MAX, sectionProblem, type Section, type SectionItem } from '@examhall/contract';
import { useQueries } from '@tanstack/react-query';
import { Button, Empty, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Link } from 'react-router';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { kindLabel } from '../../../questions/labels.js';
import { questionKey } from '../bank/queries.js';
import { VerificationTag } from '../bank/QuestionTable.js';
import { moveItem, problemAt, type Problems } from './draft.js';

/** Plain text of a stem, cut short, for a row. */
function stemText(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A fixed section's questions in order: each with its points, moved, removed, checked against the section. */
export function FixedItems(props: {
  items: SectionItem[];
  section: Section;
  path: string;
  problems: Problems;
  readOnly: boolean;
  onChange: (items: SectionItem[]) => void;
}) {
  const { t, lang } = useI18n();
  const { items } = props;
  // Each question's stem and kind from the bank (cached with the bank page's copies).
  const questions = useQueries({
    queries: items.map((item) => ({
      queryKey: questionKey(item.question_id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        request(api.bankQuestion, { query: { question_id: item.question_id }, signal }),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const setAt = (i: number, patch: Partial<SectionItem>) =>
    props.onChange(items.map((it, j) => (j === i ? { ...it, ...patch } : it)));

  const columns: TableColumnsType<SectionItem & { index: number }> = [
    { title: '#', key: 'n', width: 48, render: (_, r) => r.index + 1 },
    {
      title: t('console.bank.stem'),
      key: 'stem',
      render: (_, r) => {
        const q = questions[r.index];
        const problem = problemAt(props.problems, `${props.path}.${r.index}`, true);
        const misfit = q?.data ? sectionProblem(q.data.question.kind, props.section) : null;
        return (
          <Space orientation="vertical" size={2}>
            <Space size={4} wrap>
              <Link to={`/admin/questions?edit=${r.question_id}`} target="_blank">
                #{r.question_id}
              </Link>
              {q?.data && <Typography.Text>{stemText(q.data.question.content.stem)}</Typography.Text>}
              {q?.isError && <Typography.Text type="danger">{t('console.exams.questionMissing')}</Typography.Text>}
            </Space>
            {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
            {misfit && <Typography.Text type="danger">{t('console.exams.wrongSection')}</Typography.Text>}
          </Space>
        );
      },
    },
    {
      title: t('console.bank.kind'),
      key: 'kind',
      render: (_, r) => {
        const q = questions[r.index]?.data;
        if (!q) return null;
        return (
          <Space size={4} wrap>
            <Tag>{kindLabel(q.question.kind, lang)}</Tag>
            {q.question.kind === 'programming' && (
              <VerificationTag
                state={!q.verification ? 'none' : q.verification.stale ? 'stale' : q.verification.ok ? 'ok' : 'failed'}
              />
            )}
          </Space>
        );
      },
    },
    {
      title: t('console.exams.points'),
      key: 'points',
      width: 120,
      render: (_, r) => (
        <InputNumber
          size="small"
          min={0.01}
          max={QUESTION_POINTS_MAX}
          value={r.points}
          disabled={props.readOnly}
          status={problemAt(props.problems, `${props.path}.${r.index}.points`) ? 'error' : undefined}
          aria-label={t('console.exams.pointsOf', { n: r.index + 1 })}
          onChange={(v) => setAt(r.index, { points: v ?? 0 })}
        />
      ),
    },
  ];
  if (!props.readOnly) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      width: 120,
      render: (_, r) => (
        <Space size={2}>
          <Button
            size="small"
            type="text"
            icon={<ArrowUpOutlined aria-hidden />}
            aria-label={t('console.exams.moveUpN', { n: r.index + 1 })}
            disabled={r.index === 0}
            onClick={() => props.onChange(moveItem(items, r.index, r.index - 1))}
          />
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined aria-hidden />}
            aria-label={t('console.exams.moveDownN', { n: r.index + 1 })}
            disabled={r.index === items.length - 1}
            onClick={() => props.onChange(moveItem(items, r.index, r.index + 1))}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={t('console.exams.removeN', { n: r.index + 1 })}
            onClick={() => props.onChange(items.filter((_, j) => j !== r.index))}
          />
        </Space>
      ),
    });
  }
  return (
    <Table
      size="small"
      rowKey="question_id"
      columns={columns}
      dataSource={items.map((it, index) => ({ ...it, index }))}
      pagination={false}
      scroll={{ x: true }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('console.exams.noItems')} /> }}
    />
  );
}
