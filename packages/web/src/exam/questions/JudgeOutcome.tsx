import { enumText, PROGRAMMING_LANGUAGE_TEXTS, type JudgeData, type Subject } from '@examhall/contract';
import { Alert, Progress, Space, Spin, Table, Tag, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { describeError } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { casesDone, progressPercent, verdictColor, verdictKeys, type JudgeRun } from '../judge.js';

type CaseRow = JudgeData['cases'][number];

/** The latest run or submit: progress, then the verdict and the cases. */
export function JudgeOutcome({ run, samples }: { run: JudgeRun; samples: NonNullable<Subject['samples']> }) {
  const { t, lang } = useI18n();
  const languageName = enumText(PROGRAMMING_LANGUAGE_TEXTS, run.language, lang);
  const custom = run.input !== null;
  const title =
    run.mode === 'submit' ? t('judge.resultSubmit') : custom ? t('judge.resultCustom') : t('judge.resultRun');

  if (run.phase === 'failed' && run.error) {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={t('judge.failed', { msg: describeError(run.error.code, run.error.msg) })}
        data-testid="judge-error"
        data-code={run.error.code}
      />
    );
  }
  if (run.phase === 'saving') {
    return (
      <Space data-testid="judge-progress">
        <Spin size="small" />
        <span>{t('judge.saving')}</span>
      </Space>
    );
  }

  const data = run.data;
  const done = data ? casesDone(data) : 0;
  const total = data?.total ?? 0;
  const rows = data ? [...data.cases].sort((a, b) => a.index - b.index) : [];

  return (
    <div data-testid="judge-outcome" data-mode={run.mode} data-custom={custom ? '1' : '0'}>
      <Typography.Title level={3} style={{ fontSize: 15, marginTop: 12 }}>
        {title} <Tag>{languageName}</Tag>
      </Typography.Title>
      {run.phase === 'judging' && (
        <div data-testid="judge-progress">
          <Typography.Text>
            {data && data.state !== 'queued' ? t('judge.running', { done, total }) : t('judge.queued')}
          </Typography.Text>
          <Progress
            percent={data ? progressPercent(data) : 0}
            format={() => `${done} / ${total}`}
            status="active"
            aria-label={t('judge.progressLabel', { done, total })}
          />
        </div>
      )}
      {run.phase === 'done' && data?.verdict && <Verdict data={data} run={run} custom={custom} />}
      {rows.length > 0 && (
        <Table<CaseRow>
          size="small"
          pagination={false}
          rowKey="index"
          dataSource={rows}
          data-testid="judge-cases"
          onRow={(r) =>
            ({ 'data-testid': 'judge-case', 'data-verdict': r.verdict }) as HTMLAttributes<HTMLTableRowElement>
          }
          columns={[
            { title: t('judge.col.case'), dataIndex: 'index', width: 48 },
            {
              title: t('judge.col.verdict'),
              dataIndex: 'verdict',
              render: (_: unknown, r: CaseRow) => (
                <Tag color={verdictColor(r.verdict)} data-testid="judge-case-verdict">
                  {r.verdict} · {t(verdictKeys(r.verdict, custom).name)}
                </Tag>
              ),
            },
            { title: t('judge.col.time'), dataIndex: 'time_ms', align: 'right' },
            { title: t('judge.col.memory'), dataIndex: 'memory_kb', align: 'right' },
            ...(run.mode === 'run'
              ? [
                  {
                    title: t('judge.col.output'),
                    key: 'output',
                    render: (_: unknown, r: CaseRow) => (
                      <pre className="judge-io" data-testid="judge-output">
                        {r.output === undefined || r.output === '' ? t('judge.emptyOutput') : r.output}
                      </pre>
                    ),
                  },
                  ...(custom
                    ? []
                    : [
                        {
                          title: t('judge.col.expected'),
                          key: 'expected',
                          render: (_: unknown, r: CaseRow) => (
                            <pre className="judge-io" data-testid="judge-expected">
                              {samples[r.index - 1]?.output ?? ''}
                            </pre>
                          ),
                        },
                      ]),
                ]
              : []),
          ]}
        />
      )}
    </div>
  );
}

function Verdict({ data, run, custom }: { data: JudgeData; run: JudgeRun; custom: boolean }) {
  const { t } = useI18n();
  const verdict = data.verdict!;
  const keys = verdictKeys(verdict, custom);
  const passed = data.cases.filter((c) => c.verdict === 'AC').length;
  const type = verdict === 'AC' ? 'success' : verdict === 'SE' ? 'info' : verdict === 'WA' ? 'error' : 'warning';
  return (
    <Alert
      type={type}
      showIcon
      style={{ margin: '8px 0' }}
      data-testid="judge-verdict"
      data-verdict={verdict}
      title={
        <span>
          <Tag color={verdictColor(verdict)}>{verdict}</Tag>
          {t(keys.name)}
          {run.mode === 'submit' && data.total > 0 && (
            <span className="judge-passed"> · {t('judge.passed', { passed, total: data.total })}</span>
          )}
        </span>
      }
      description={
        <>
          <div>{t(keys.help)}</div>
          {verdict === 'CE' && data.compile_output !== undefined && (
            <>
              <div style={{ marginTop: 8 }}>{t('judge.compileOutput')}</div>
              {/* Focusable so a keyboard can scroll a long compiler log. */}
              <pre className="compile-output" tabIndex={0} data-testid="compile-output">
                {data.compile_output}
              </pre>
            </>
          )}
          {verdict === 'SE' && data.compile_output !== undefined && (
            <pre className="compile-output" tabIndex={0}>
              {data.compile_output}
            </pre>
          )}
        </>
      }
    />
  );
}
