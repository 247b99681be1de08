import {
  api,
  dimensionName,
  type ResultReportData,
  enumText,
  enumTextOf,
  OTHER_TEXT,
  OUTCOME_TEXTS,
  outcomeOf,
  PROGRAMMING_LANGUAGE_TEXTS,
  SECTION_TEXTS,
  Verdict,
} from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Empty, Skeleton, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { Suspense, useCallback } from 'react';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { eventName } from '../proctoring/labels.js';
import { LoadError } from '../shared/PageTitle.js';
import { answerSummary } from './answerSummary.js';
import { DimensionChart } from './lazyCharts.js';

type Question = ResultReportData['questions'][number];

/**
 * One attempt's report in a drawer: the summary (whether they passed only when the exam has a pass rule), each
 * question, the dimensions chart and the integrity summary.
 */
export function ReportDrawer({
  attemptId,
  passRule,
  onClose,
}: {
  attemptId: number | null;
  passRule: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const report = useQuery({
    queryKey: queryKey(api.resultsReport, { attempt_id: attemptId! }),
    queryFn: ({ signal }) => request(api.resultsReport, { query: { attempt_id: attemptId! }, signal }),
    enabled: attemptId !== null,
  });
  const r = report.data;
  return (
    <Drawer
      open={attemptId !== null}
      onClose={onClose}
      size="large"
      title={t('console.results.report.title')}
      destroyOnHidden
      // The report scrolls inside a region of its own, which a keyboard can reach (it has no control to focus).
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' } }}
      data-testid="results-report"
    >
      <div
        tabIndex={0}
        role="region"
        aria-label={t('console.results.report.title')}
        style={{ flex: 1, overflow: 'auto', padding: 24 }}
      >
        <LoadError error={report.error} />
        {!r ? (
          <Skeleton active />
        ) : (
          <Typography>
            <ReportSummary r={r} passRule={passRule} />
            <QuestionTable questions={r.questions} />
            <Dimensions r={r} />
            <Integrity r={r} />
          </Typography>
        )}
      </div>
    </Drawer>
  );
}

/** Who, the score, the rank and the pass. */
function ReportSummary({ r, passRule }: { r: ResultReportData; passRule: boolean }) {
  const { t, lang } = useI18n();
  const pass = enumText(OUTCOME_TEXTS, outcomeOf(r.passed), lang);
  return (
    <Descriptions
      column={2}
      size="small"
      items={[
        {
          key: 'name',
          label: t('console.results.candidate'),
          children: `${r.candidate.name || t('console.common.notGiven')} ${r.candidate.phone}`,
        },
        {
          key: 'school',
          label: t('console.results.school'),
          children: [r.candidate.school, r.candidate.major].filter(Boolean).join(' ') || t('console.common.notGiven'),
        },
        {
          key: 'score',
          label: t('console.results.total'),
          children: <span data-testid="report-score">{`${r.score} / ${r.max_score}`}</span>,
        },
        {
          key: 'rank',
          label: t('console.results.rank'),
          children: t('console.results.report.rank', { rank: r.rank, n: r.ranked }),
        },
        ...(passRule ? [{ key: 'pass', label: t('console.results.passed'), children: pass }] : []),
        {
          key: 'sections',
          label: t('console.results.score'),
          children: r.sections
            .map((s) => `${enumText(SECTION_TEXTS, s.section, lang)} ${s.score} / ${s.max}`)
            .join(' · '),
        },
      ]}
    />
  );
}

/**
 * Each question: answer, points and who scored it, time, judge result (when the paper has code). The table keeps to
 * the drawer's width: the figures have fixed widths, the stem and the answer share the rest, cut with an ellipsis.
 */
function QuestionTable({ questions }: { questions: Question[] }) {
  const { t, lang } = useI18n();
  const judged = questions.some((q) => q.judge);
  const columns: TableColumnsType<Question> = [
    { title: '#', dataIndex: 'order_num', width: 44 },
    { title: t('console.results.report.question'), dataIndex: 'stem', ellipsis: true },
    {
      title: t('console.results.report.answer'),
      key: 'answer',
      ellipsis: true,
      render: (_, q) =>
        q.answer?.kind === 'code' ? (
          // The language by name, then the code's first line as code.
          <>
            {enumTextOf(PROGRAMMING_LANGUAGE_TEXTS, q.answer.language, lang, OTHER_TEXT)}:{' '}
            <code>{q.answer.code.trim().split('\n')[0]}</code>
          </>
        ) : (
          (answerSummary(q.answer, lang) ?? (
            <Typography.Text type="secondary">{t('console.results.report.noAnswer')}</Typography.Text>
          ))
        ),
    },
    {
      title: t('console.results.report.points'),
      key: 'points',
      width: 96,
      // "Waiting for a grader" wraps inside its cell rather than run over the next one.
      render: (_, q) =>
        q.points === null ? (
          <Tag color="orange" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
            {t('console.results.report.waiting')}
          </Tag>
        ) : (
          `${q.points} / ${q.max}`
        ),
    },
    {
      title: t('console.results.report.source'),
      key: 'source',
      width: 84,
      render: (_, q) => t(`console.results.report.source.${q.source}`),
    },
    {
      title: t('console.results.report.time'),
      key: 'time',
      width: 72,
      render: (_, q) => `${Math.round(q.time_ms / 1000)} s`,
    },
    ...(judged
      ? [
          {
            title: t('console.results.report.judge'),
            key: 'judge',
            width: 120,
            ellipsis: true,
            render: (_: unknown, q: Question) => (q.judge ? judgeSummary(q.judge, t, lang) : ''),
          },
        ]
      : []),
  ];
  return (
    <Table<Question>
      rowKey="question_id"
      size="small"
      columns={columns}
      dataSource={questions}
      pagination={false}
      tableLayout="fixed"
      data-testid="report-questions"
      style={{ margin: '16px 0' }}
    />
  );
}

/** A judged answer in words: the verdict, the cases passed and the language by its name. */
function judgeSummary(
  judge: NonNullable<Question['judge']>,
  t: ReturnType<typeof useI18n>['t'],
  lang: ReturnType<typeof useI18n>['lang'],
): string {
  const verdict = Verdict.safeParse(judge.verdict);
  const said = judge.verdict === null ? '…' : verdict.success ? t(`judge.verdict.${verdict.data}`) : judge.verdict;
  const language = enumTextOf(PROGRAMMING_LANGUAGE_TEXTS, judge.language, lang, OTHER_TEXT);
  return `${said} ${judge.passed ?? 0}/${judge.total} (${language})`;
}

/** The evaluation's dimensions as a chart. */
function Dimensions({ r }: { r: ResultReportData }) {
  const { t, lang } = useI18n();
  const name = useCallback((id: string) => dimensionName(id, lang === 'zh-CN' ? 'zh' : 'en'), [lang]);
  return (
    <>
      <Typography.Title level={5}>{t('console.results.chart.dimensions')}</Typography.Title>
      {r.dimensions.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('console.results.report.noDimensions')}</Typography.Paragraph>
      ) : (
        <div data-testid="report-dimensions">
          <Suspense fallback={<Skeleton active title={false} />}>
            <DimensionChart dimensions={r.dimensions} name={name} label={t('console.results.chart.dimensions')} />
          </Suspense>
        </div>
      )}
    </>
  );
}

/** Risk records by event, the proctors' decisions, warnings and screen switches. */
function Integrity({ r }: { r: ResultReportData }) {
  const { t } = useI18n();
  const i = r.integrity;
  return (
    <>
      <Typography.Title level={5}>{t('console.results.report.integrity')}</Typography.Title>
      <Typography.Paragraph data-testid="report-integrity">
        {t('console.results.report.risks', { n: i.risk_count, open: i.open, warnings: i.warnings, cuts: i.cuts_used })}{' '}
        {i.flagged && <Tag color="red">{t('console.results.flagged')}</Tag>}
      </Typography.Paragraph>
      {i.by_risk.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('console.results.report.noRisk')} />
      ) : (
        <ul>
          {i.by_risk.map((b) => (
            <li key={b.risk}>
              {eventName(t, { kind: 'risk', risk: b.risk })}: {b.count}
              {b.confirmed > 0 && ` · ${t('console.results.report.confirmed')} ${b.confirmed}`}
              {b.dismissed > 0 && ` · ${t('console.results.report.dismissed')} ${b.dismissed}`}
            </li>
          ))}
        </ul>
      )}
      {i.decisions.length > 0 && (
        <>
          <Typography.Text strong>{t('console.results.report.decisions')}</Typography.Text>
          <ul>
            {i.decisions.map((d) => (
              <li key={d.record_id}>
                {eventName(t, { kind: 'risk', risk: d.risk })}:{' '}
                {d.decision === 'confirmed'
                  ? t('console.results.report.confirmed')
                  : t('console.results.report.dismissed')}
                {d.note && ` (${d.note})`}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
