import { CaretRightOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { LANGUAGES, type JudgeData, type LanguageId, type Subject } from '@examhall/contract';
import { Alert, Button, Flex, Input, Progress, Space, Spin, Table, Tag, Typography } from 'antd';
import {
  useCallback,
  useEffect,
  useId,
  useState,
  useSyncExternalStore,
  type HTMLAttributes,
  type KeyboardEvent,
} from 'react';
import { describeError } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { casesDone, judgeRuns, progressPercent, verdictColor, verdictKeys, type JudgeRun } from '../judge.js';

/** What the panel needs from the question and the exam page. */
export interface JudgePanelProps {
  examId: number;
  subject: Pick<Subject, 'id' | 'type' | 'samples'>;
  language: LanguageId;
  code: string;
  /** Puts the code answer into the outbox and waits until it is sent (or the wait runs out). */
  save: () => Promise<void>;
  /** The server said the attempt is over. */
  onExamFinished: () => void;
}

/** Starting a job from the panel; the editor's Ctrl+Enter calls it as well. */
export type StartJudge = (how: 'samples' | 'custom' | 'submit') => void;

type CaseRow = JudgeData['cases'][number];

/**
 * Run, run with custom input and submit under a programming question's editor, then progress and
 * results. The outcome lives in `judgeRuns`, so it is still shown when the candidate comes back; after
 * a reload the server's newest run or submit is shown instead.
 */
export function useJudge({ examId, subject, language, code, save, onExamFinished }: JudgePanelProps) {
  const run = useSyncExternalStore(
    judgeRuns.subscribe,
    useCallback(() => judgeRuns.get(examId, subject.id), [examId, subject.id]),
  );
  const hasSamples = (subject.samples?.length ?? 0) > 0;
  const [customOpen, setCustomOpen] = useState(!hasSamples);
  const [input, setInput] = useState(() => run?.input ?? '');
  const [problem, setProblem] = useState<'noCode' | 'noInput' | null>(null);
  const busy = run?.phase === 'saving' || run?.phase === 'judging';

  useEffect(() => {
    void judgeRuns.restore(examId, subject.id);
  }, [examId, subject.id]);
  // A run restored after a reload brings back the input it used, unless the candidate has typed another.
  const restoredInput = run?.input ?? null;
  useEffect(() => {
    if (restoredInput === null || restoredInput === '') return;
    setInput((now) => (now === '' ? restoredInput : now));
    setCustomOpen(true);
  }, [restoredInput]);

  const start: StartJudge = (how) => {
    if (judgeRuns.busy(examId, subject.id)) return;
    if (code.trim() === '') return setProblem('noCode');
    if (how === 'custom' && input === '') {
      setCustomOpen(true);
      return setProblem('noInput');
    }
    setProblem(null);
    void judgeRuns
      .start(
        {
          examId,
          subjectId: subject.id,
          language,
          code,
          mode: how === 'submit' ? 'submit' : 'run',
          ...(how === 'custom' ? { input } : {}),
        },
        save,
      )
      .then((r) => {
        if (r.error?.code === 'exam_finished') onExamFinished();
      });
  };
  /** Ctrl+Enter: the samples when there are any, else the custom input. */
  const runDefault = () => start(hasSamples ? 'samples' : 'custom');

  return { run, hasSamples, customOpen, setCustomOpen, input, setInput, problem, busy, start, runDefault };
}

export function JudgePanel(props: JudgePanelProps & { judge: ReturnType<typeof useJudge> }) {
  const { t } = useI18n();
  const { subject, judge } = props;
  const { run, hasSamples, customOpen, setCustomOpen, input, setInput, problem, busy, start } = judge;
  const inputId = useId();
  const shortcutId = useId();
  const canSubmit = subject.type === 6;

  const onInputKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      start('custom');
    }
  };

  return (
    <section className="judge-panel" aria-label={t('judge.panel')} data-testid="judge-panel">
      <Flex wrap gap={8} align="center">
        {hasSamples && (
          <Button
            icon={<CaretRightOutlined aria-hidden />}
            onClick={() => start('samples')}
            disabled={busy}
            aria-describedby={shortcutId}
            data-testid="judge-run"
          >
            {t('judge.run')}
          </Button>
        )}
        <Button
          type={customOpen ? 'dashed' : 'default'}
          onClick={() => setCustomOpen(!customOpen)}
          aria-expanded={customOpen}
          aria-controls={inputId}
          data-testid="judge-custom-toggle"
        >
          {t('judge.customToggle')}
        </Button>
        {canSubmit && (
          <Button
            type="primary"
            icon={<CloudUploadOutlined aria-hidden />}
            onClick={() => start('submit')}
            disabled={busy}
            data-testid="judge-submit"
          >
            {t('judge.submit')}
          </Button>
        )}
        <Typography.Text type="secondary" id={shortcutId} data-testid="judge-shortcut">
          {hasSamples ? t('judge.runShortcut') : t('judge.runCustomShortcut')}
        </Typography.Text>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
        {canSubmit ? t('judge.submitNote') : t('judge.qaNote')}
      </Typography.Paragraph>
      {customOpen && (
        <div className="judge-custom">
          <label htmlFor={inputId}>{t('judge.customLabel')}</label>
          <Input.TextArea
            id={inputId}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onInputKey}
            autoSize={{ minRows: 2, maxRows: 8 }}
            spellCheck={false}
            className="judge-input"
            data-testid="judge-input"
          />
          <Button onClick={() => start('custom')} disabled={busy} data-testid="judge-run-custom">
            {t('judge.runCustom')}
          </Button>
        </div>
      )}
      {problem && <Alert type="warning" showIcon role="alert" title={t(`judge.${problem}`)} style={{ marginTop: 8 }} />}
      <div aria-live="polite" className="judge-outcome">
        {run && <JudgeOutcome run={run} samples={subject.samples ?? []} />}
      </div>
    </section>
  );
}

function JudgeOutcome({ run, samples }: { run: JudgeRun; samples: NonNullable<Subject['samples']> }) {
  const { t } = useI18n();
  const languageName = LANGUAGES.find((l) => l.id === run.language)?.name ?? run.language;
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
