import type { CandidateImportPreviewData, CandidateImportProblem, CandidateImportRow } from '@examhall/contract';
import { Alert, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';

const ACTION_COLORS = { create: 'green', update: 'blue', invalid: 'red' } as const;

/**
 * The preview of a candidate file: counts of the whole file, then the first candidates (or the first with a
 * problem) with their problems, problem rows highlighted; the server answers a page, a file may hold 10,000 rows.
 */
export function ImportPreview({ preview }: { preview: CandidateImportPreviewData }) {
  const { t, lang } = useI18n();
  const [problemsOnly, setProblemsOnly] = useState(false);
  const byRow = useMemo(() => {
    const map = new Map<number, CandidateImportProblem[]>();
    for (const p of preview.problems) {
      if (p.row === null) continue;
      map.set(p.row, [...(map.get(p.row) ?? []), p]);
    }
    return map;
  }, [preview.problems]);
  const problemsOf = (r: CandidateImportRow) => r.rows.flatMap((n) => byRow.get(n) ?? []);
  const rows = problemsOnly ? preview.problem_rows : preview.rows;
  const of = problemsOnly ? preview.counts.with_problems : preview.counts.candidates;
  const fileProblems = preview.problems.filter((p) => p.row === null);
  const columns: TableColumnsType<CandidateImportRow> = [
    { title: t('cand.import.rows'), dataIndex: 'rows', width: 90, render: (rs: number[]) => rs.join(', ') },
    {
      title: t('exam.cand.status'),
      dataIndex: 'action',
      width: 110,
      render: (a: CandidateImportRow['action']) => <Tag color={ACTION_COLORS[a]}>{t(`cand.import.action.${a}`)}</Tag>,
    },
    { title: t('cand.col.phone'), render: (_, r) => `+${r.area_code} ${r.phone}` },
    { title: t('cand.col.name'), dataIndex: 'name' },
    { title: t('cand.col.school'), dataIndex: 'school' },
    { title: t('cand.col.email'), dataIndex: 'email' },
    {
      title: t('cand.import.problems'),
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          {problemsOf(r).map((p, i) => (
            <Typography.Text key={i} type={p.severity === 'error' ? 'danger' : 'warning'}>
              {lang === 'zh-CN' ? p.message_zh : p.message}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
  ];
  const c = preview.counts;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text data-testid="candidate-import-counts">
        {t('cand.import.counts', {
          rows: c.rows,
          create: c.create,
          update: c.update,
          invalid: c.invalid,
          merged: c.merged,
        })}
      </Typography.Text>
      {preview.custom_columns.length > 0 && (
        <Typography.Text type="secondary">
          {t('cand.import.custom', { cols: preview.custom_columns.join(', ') })}
        </Typography.Text>
      )}
      {c.invalid > 0 && <Alert type="error" showIcon title={t('cand.import.hasErrors', { n: c.invalid })} />}
      {fileProblems.map((p, i) => (
        <Alert key={i} type="warning" showIcon title={lang === 'zh-CN' ? p.message_zh : p.message} />
      ))}
      <Space>
        <Switch
          checked={problemsOnly}
          onChange={setProblemsOnly}
          aria-label={t('cand.import.problemsOnly')}
          data-testid="candidate-import-problems-only"
        />
        {t('cand.import.problemsOnly')}
      </Space>
      {of > rows.length && (
        <Typography.Text type="secondary" data-testid="candidate-import-shown">
          {t(problemsOnly ? 'cand.import.shownProblems' : 'cand.import.shown', {
            shown: rows.length,
            n: of.toLocaleString(lang),
          })}
        </Typography.Text>
      )}
      <Table<CandidateImportRow>
        size="small"
        rowKey="row"
        columns={columns}
        dataSource={rows}
        pagination={false}
        rowClassName={(r) => (r.action === 'invalid' ? 'ant-table-row-error' : '')}
        onRow={(r) => ({ style: r.action === 'invalid' ? { background: '#fff1f0' } : {} })}
        data-testid="candidate-import-preview"
      />
    </Space>
  );
}
