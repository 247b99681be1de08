import {
  AnswerEvent,
  api,
  ExamMode,
  ExamPhase,
  type AnswerValue,
  type AttemptView,
  type ExamDetail,
  type Section,
} from '@examhall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Radio, Skeleton, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { errorText, isApiError, request, requestWithMessage } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { hasContent, parseStored } from '../../exam/answers.js';
import {
  alignClock,
  alignWithOffset,
  crossedMilestone,
  formatDuration,
  serverNow,
  useRemaining,
} from '../../exam/clock.js';
import { cached, isNetworkFailure, recall, remember } from '../../exam/offlineCache.js';
import { questionKey, saveStateOf, type Outbox, type OutboxSnapshot, type SaveState } from '../../exam/outbox.js';
import { dimensionsKey, pathForPhase, resultKey, useExamDetail, useExamParams } from '../../exam/queries.js';
import { Html } from '../../exam/questions/Html.js';
import { QuestionBody, type QuestionContext } from '../../exam/questions/QuestionBody.js';
import { openExamOutbox } from '../../exam/session.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { CaptureStatus } from '../../proctor/CaptureStatus.js';
import { DeviceReconnect } from '../../proctor/DeviceReconnect.js';
import { startProctoring, type Proctoring } from '../../proctor/captures.js';
import { useRiskDetectors } from '../../proctor/risks.js';
import { stopStreams } from '../../proctor/streams.js';
import {
  FullscreenPrompt,
  SwitchNotice,
  useCandidateEvents,
  useWarnings,
  WarningDialog,
} from '../../proctor/warnings.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { PreviewKeys } from './PreviewKeys.js';

/** One place on the answer card. */
interface Item {
  kind: 'subject' | 'ceping';
  id: number;
  section: Section;
  type: number;
  /** The server's answered flag when the page loaded. */
  answeredOnServer: boolean;
}

const EMPTY_SNAPSHOT: OutboxSnapshot = {
  online: true,
  failures: 0,
  finished: false,
  pending: new Map(),
  rejected: new Map(),
  total: 0,
};
const noSubscribe = () => () => undefined;
/** How long a run or submit waits for the code answer to be saved; the judge call carries the code anyway. */
const JUDGE_SAVE_WAIT_MS = 8_000;
/** How often the phone's status is read while the live stream is down. */
const PHONE_POLL_MS = 15_000;

const keyOf = (item: Item) => questionKey(item.kind === 'ceping' ? 'ceping' : 'answer', item.id);

const SAVE_KEYS: Record<SaveState, MessageKey> = {
  saved: 'exam.legend.saved',
  saving: 'exam.legend.saving',
  unsaved: 'exam.legend.unsaved',
};

/** The attempt: resumed from the server, or the copy kept in this browser when there is no network. */
async function loadAttempt(examId: number, anid: number): Promise<AttemptView> {
  try {
    const data = await request(api.startExam, { body: { exam_id: examId, anid } });
    await remember(`attempt:${examId}`, data.attempt);
    return data.attempt;
  } catch (e) {
    const copy = isNetworkFailure(e) ? await recall<AttemptView>(`attempt:${examId}`) : undefined;
    if (!copy) throw e;
    return copy;
  }
}

/** The server clock: aligned now, or from the offset kept at the last alignment when there is no network. */
async function loadClock(): Promise<true> {
  try {
    const c = await alignClock();
    await remember('clock-offset', c.serverMs - Date.now());
  } catch (e) {
    const offset = await recall<number>('clock-offset');
    if (!isNetworkFailure(e) || offset === undefined) throw e;
    alignWithOffset(offset);
  }
  return true;
}

/** The exam phase: timer, sections, answer card, questions, and saving that loses nothing. */
export default function ExamPage() {
  const { examId, anid } = useExamParams();
  const location = useLocation();
  const detail = useExamDetail(examId, anid);
  const attempt = useQuery({
    queryKey: ['attempt', examId, anid],
    queryFn: () => loadAttempt(examId, anid),
    staleTime: Infinity,
  });
  const clock = useQuery({ queryKey: ['server-clock'], queryFn: loadClock, staleTime: Infinity });

  if (currentAuth() === null) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (attempt.data && attempt.data.phase !== ExamPhase.exam) {
    return <Navigate to={pathForPhase(examId, anid, attempt.data.phase)} replace />;
  }
  const failed = detail.error ?? attempt.error ?? clock.error;
  if (failed) {
    return (
      <div className="page-body">
        <Alert type="error" showIcon role="alert" title={errorText(failed)} data-testid="exam-error" />
      </div>
    );
  }
  if (!detail.data || !attempt.data || !clock.data) {
    return (
      <div className="page-body">
        <Card>
          <Skeleton active />
        </Card>
      </div>
    );
  }
  return <ExamRoom detail={detail.data} attempt={attempt.data} anid={anid} />;
}

function ExamRoom({ detail, attempt, anid }: { detail: ExamDetail; attempt: AttemptView; anid: number }) {
  const { t } = useI18n();
  useDocumentTitle(detail.name);
  // The app's modal (not the static Modal.confirm), so the dialog has the app's theme and language.
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const examId = detail.id;

  // The outbox opens once per exam; until it has loaded what an earlier visit left, nothing is shown as answered.
  const [box, setBox] = useState<Outbox | null>(null);
  const [boxError, setBoxError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let opened: Outbox | null = null;
    openExamOutbox(examId).then(
      (b) => {
        if (cancelled) return b.close();
        opened = b;
        setBox(b);
      },
      (e: unknown) => setBoxError(errorText(e)),
    );
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [examId]);
  const snapshot = useSyncExternalStore(box?.subscribe ?? noSubscribe, box?.getSnapshot ?? (() => EMPTY_SNAPSHOT));

  // Proctoring: captures on the exam's interval, a picture at every risk event, the detectors, the live stream.
  const proctoring = useRef<Proctoring | null>(null);
  useEffect(() => {
    const p = startProctoring(examId);
    proctoring.current = p;
    return () => {
      p.stop();
      proctoring.current = null;
    };
  }, [examId]);
  const [endedReason, setEndedReason] = useState<string | null>(null);
  const risks = useRiskDetectors({
    examId,
    box,
    cutsLeft: attempt.cuts_left,
    allowPaste: detail.is_paste === 1,
    allowCopy: detail.is_copy_question === 1,
    onPasteBlocked: () => void message.warning({ content: t('exam.pasteBlocked'), key: 'paste-blocked' }),
    onCopyBlocked: () => void message.warning({ content: t('exam.copyBlocked'), key: 'copy-blocked' }),
    pertinent: (id) => void proctoring.current?.pertinent(id),
    onEnded: setEndedReason,
  });
  const warnings = useWarnings(examId);
  const { phoneStatus } = risks;
  const live = useCandidateEvents(examId, {
    onWarning: warnings.add,
    onEnded: setEndedReason,
    onPhone: phoneStatus,
  });
  // Without the live stream the phone's status is read now and then, so a phone that stops is still seen.
  const phoneWatched = detail.is_close_phone !== 1;
  useEffect(() => {
    if (live || !phoneWatched) return;
    const read = () =>
      void request(api.monitorState, { query: { exam_id: examId } }).then(
        (s) => phoneStatus(s.mobileDeviceStatus),
        () => undefined,
      );
    read();
    const timer = setInterval(read, PHONE_POLL_MS);
    return () => clearInterval(timer);
  }, [live, phoneWatched, examId, phoneStatus]);

  const order = useQuery({
    queryKey: ['order-list', examId],
    queryFn: ({ signal }) =>
      cached(`order:${examId}`, () => request(api.orderList, { query: { exam_id: examId }, signal })),
  });
  const hasEvaluation = detail.countNum.evaluation > 0;
  const card = useQuery({
    queryKey: ['ceping-card', examId],
    queryFn: ({ signal }) =>
      cached(`ceping-card:${examId}`, () => request(api.cepingLineOrder, { query: { exam_id: examId }, signal })),
    enabled: hasEvaluation,
  });

  const items = useMemo<Item[]>(() => {
    const list: Item[] = (order.data?.subject_order ?? [])
      .filter((e) => e.section !== 'evaluation')
      .map((e) => ({
        kind: 'subject',
        id: e.id,
        section: e.section,
        type: e.type,
        answeredOnServer: e.isAnswered === 1,
      }));
    for (const c of [...(card.data?.data ?? [])].sort((a, b) => a.order_num - b.order_num)) {
      list.push({ kind: 'ceping', id: c.id, section: 'evaluation', type: 11, answeredOnServer: c.isAnswered === 1 });
    }
    return list;
  }, [order.data, card.data]);

  // Every question is fetched (and kept in this browser) up front, so moving on works without a network.
  useEffect(() => {
    for (const item of items) {
      void queryClient.prefetchQuery({
        queryKey: ['question', examId, item.kind, item.id],
        queryFn: () => loadQuestion(examId, item),
        staleTime: Infinity,
      });
    }
  }, [items, examId, queryClient]);

  // What the candidate sees as their answers: the server's copy, then unsent changes from this browser on top.
  const [answers, setAnswers] = useState<Map<string, AnswerValue | string>>(new Map());
  const restored = useRef(false);
  useEffect(() => {
    if (!box || restored.current) return;
    restored.current = true;
    const pending = box.pendingAnswers();
    setAnswers((prev) => {
      const next = new Map(prev);
      for (const [key, entry] of pending) {
        const v = entry.answer ?? entry.option;
        if (v !== undefined) next.set(key, v);
      }
      return next;
    });
  }, [box]);
  const adoptServerAnswer = useCallback((key: string, value: AnswerValue | string | undefined) => {
    if (value === undefined) return;
    setAnswers((prev) => (prev.has(key) ? prev : new Map(prev).set(key, value)));
  }, []);

  const [index, setIndex] = useState(() => {
    const saved = Number(sessionStorage.getItem(`exam-pos:${examId}`));
    return Number.isInteger(saved) && saved >= 0 ? saved : 0;
  });
  const current = items[Math.min(index, Math.max(0, items.length - 1))];
  useEffect(() => sessionStorage.setItem(`exam-pos:${examId}`, String(index)), [index, examId]);

  const record = useCallback(
    (item: Item | undefined, event: AnswerEvent) => {
      if (!box || !item) return;
      // Events of evaluation items are recorded through /answer/answer too; only their answers go to /ceping/answer.
      void box.enqueue({ channel: 'answer', subject_id: item.id, event });
    },
    [box],
  );
  const entered = useRef<number | null>(null);
  useEffect(() => {
    if (!current || entered.current === current.id) return;
    if (!box) return;
    entered.current = current.id;
    record(current, AnswerEvent.enter);
  }, [current, box, record]);

  const go = useCallback(
    (to: number, how: 'prevAndNext' | 'goto') => {
      if (to < 0 || to >= items.length || to === index) return;
      record(items[index], AnswerEvent.leave);
      record(items[to], how === 'goto' ? AnswerEvent.goto : AnswerEvent.prevAndNext);
      setIndex(to);
      requestAnimationFrame(() => document.getElementById('question-heading')?.focus());
    },
    [items, index, record],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        go(index - 1, 'prevAndNext');
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        go(index + 1, 'prevAndNext');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, index]);

  const change = useCallback(
    (item: Item, value: AnswerValue | string) => {
      const key = keyOf(item);
      setAnswers((prev) => new Map(prev).set(key, value));
      if (!box) return;
      const stored =
        item.kind === 'ceping'
          ? box.enqueue({ channel: 'ceping', subject_id: item.id, option: value as string })
          : box.enqueue({ channel: 'answer', subject_id: item.id, answer: value as AnswerValue });
      stored.catch((e: unknown) => setBoxError(errorText(e)));
    },
    [box],
  );

  const answered = (item: Item) => {
    const key = keyOf(item);
    return answers.has(key) ? hasContent(answers.get(key)) : item.answeredOnServer;
  };
  const answeredCount = items.filter(answered).length;

  // Submitting: first every change reaches the server, then the evaluation is scored, then the attempt is finished.
  const finishId = useRef(crypto.randomUUID());
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const submit = useCallback(
    async (auto: boolean) => {
      if (!box || submitting) return;
      setSubmitting(true);
      setSubmitError(null);
      try {
        record(current, AnswerEvent.submit);
        const left = await box.drain(auto ? 8_000 : 15_000);
        if (left > 0 && !auto && !box.getSnapshot().finished) {
          setSubmitError(t('exam.submitUnsent', { n: left }));
          return;
        }
        if (hasEvaluation) {
          try {
            const dims = await request(api.cepingFinish, { body: { exam_id: examId } });
            queryClient.setQueryData(dimensionsKey(examId), dims);
          } catch (e) {
            if (!(isApiError(e) && e.code === 'exam_finished')) throw e;
          }
        }
        try {
          const result = await request(api.finishExam, { body: { exam_id: examId, client_id: finishId.current } });
          queryClient.setQueryData(resultKey(examId), result);
        } catch (e) {
          if (!(isApiError(e) && e.code === 'exam_finished')) throw e;
        }
        await remember(`attempt:${examId}`, { ...attempt, phase: ExamPhase.submit });
        stopStreams();
        await navigate(pathForPhase(examId, anid, ExamPhase.submit), { replace: true, state: { unsent: left } });
        // Only once the result page is shown: a refetch while it loads would navigate again, without the state.
        queryClient.removeQueries({ queryKey: ['attempt', examId] });
      } catch (e) {
        setSubmitError(t('exam.submitFailed', { msg: errorText(e) }));
      } finally {
        setSubmitting(false);
      }
    },
    [box, submitting, record, current, t, hasEvaluation, examId, queryClient, attempt, navigate, anid],
  );

  // The server ended the attempt (time, a proctor, too many screen switches), seen by a save, a judge call,
  // a risk record or the live stream: the result page says what happened.
  const [endedOnJudge, setEndedOnJudge] = useState(false);
  useEffect(() => {
    if (!snapshot.finished && !endedOnJudge && endedReason === null) return;
    queryClient.removeQueries({ queryKey: resultKey(examId) });
    stopStreams();
    // Kept for the tab as well: any later navigation to the result (a reload, a second redirect) still explains it.
    if (endedReason !== null) sessionStorage.setItem(`exam-ended:${examId}`, endedReason);
    void Promise.resolve(
      navigate(pathForPhase(examId, anid, ExamPhase.submit), {
        replace: true,
        state: { unsent: snapshot.total, reason: endedReason },
      }),
    ).then(() => queryClient.removeQueries({ queryKey: ['attempt', examId] }));
  }, [snapshot.finished, endedOnJudge, endedReason, snapshot.total, navigate, examId, anid, queryClient]);

  const confirmSubmit = () => {
    modal.confirm({
      title: t('exam.submitConfirmTitle'),
      content: t('exam.submitConfirmBody', { answered: answeredCount, total: items.length }),
      okText: t('exam.submit'),
      okButtonProps: { 'data-testid': 'submit-confirm' } as Record<string, string>,
      onOk: () => submit(false),
    });
  };

  const ctx: QuestionContext = {
    examId,
    allowPaste: detail.is_paste === 1,
    allowUpload: detail.is_upload_file === 1,
    warnPaste: () => void message.warning({ content: t('exam.pasteBlocked'), key: 'paste-blocked' }),
    saveNow: async () => {
      if (box) await box.drain(JUDGE_SAVE_WAIT_MS);
    },
    examFinished: () => setEndedOnJudge(true),
  };

  const sections = (['linetest', 'major', 'evaluation'] as const).filter((s) => items.some((i) => i.section === s));
  const pendingTotal = [...snapshot.pending.values()].reduce((a, b) => a + b, 0);

  return (
    <div className="exam-room" data-live={live ? '1' : '0'}>
      <header className="exam-header">
        <Flex align="center" gap={12} wrap style={{ minWidth: 0 }}>
          <Typography.Title level={1} className="exam-title" data-testid="exam-title">
            {detail.name}
          </Typography.Title>
          {detail.mode === ExamMode.simulate && (
            <Tag color="gold" data-testid="practice-badge">
              {t('exam.practiceBadge')}
            </Tag>
          )}
        </Flex>
        <Flex align="center" gap={16} wrap>
          <Tag
            color={risks.state.cutsLeft > 0 ? 'default' : 'red'}
            data-testid="cuts-left"
            data-left={risks.state.cutsLeft}
          >
            {t('risk.cutsLeft', { n: Math.max(0, risks.state.cutsLeft) })}
          </Tag>
          <Timer endTime={attempt.end_time} onTimeUp={() => void submit(true)} />
          <Button type="primary" onClick={confirmSubmit} loading={submitting} data-testid="exam-submit">
            {t('exam.submit')}
          </Button>
        </Flex>
      </header>

      <div className="exam-status" role="status" aria-live="polite" data-testid="save-status">
        {!snapshot.online ? (
          <Alert type="warning" showIcon title={t('exam.offline')} data-testid="net-banner" />
        ) : snapshot.failures > 0 ? (
          <Alert type="warning" showIcon title={t('exam.unstable', { n: pendingTotal })} data-testid="net-banner" />
        ) : (
          <Typography.Text type="secondary" data-testid="save-summary">
            {pendingTotal > 0 ? t('exam.pending', { n: pendingTotal }) : t('exam.allSaved')}
          </Typography.Text>
        )}
      </div>
      <SwitchNotice left={risks.state.switchNotice} onClose={risks.dismissSwitchNotice} />
      <FullscreenPrompt
        fullscreen={risks.state.fullscreen}
        left={risks.state.leftFullscreen}
        onEnter={risks.requestFullscreen}
      />
      {risks.state.accountChanged !== null && (
        <Alert type="error" showIcon role="alert" title={t('risk.accountChanged')} data-testid="account-changed" />
      )}
      <CaptureStatus />
      <DeviceReconnect examId={examId} />
      <WarningDialog warnings={warnings.warnings} onAcknowledge={warnings.acknowledge} />
      {[...snapshot.rejected.values()]
        .filter((r) => !r.key.startsWith('risk:'))
        .map((r, i) => {
          const n = items.findIndex((it) => keyOf(it) === r.key) + 1;
          return <Alert key={i} type="error" showIcon title={t('exam.rejected', { n, msg: errorText(r.error) })} />;
        })}
      {boxError && <Alert type="error" showIcon role="alert" title={boxError} />}
      {submitting && <Alert type="info" showIcon title={t('exam.submitting')} />}
      {submitError && <Alert type="error" showIcon role="alert" title={submitError} data-testid="submit-error" />}

      <div className="exam-body">
        <aside className="answer-card" aria-labelledby="card-title">
          <Typography.Title level={2} style={{ fontSize: 16 }} id="card-title">
            {t('exam.card')}
          </Typography.Title>
          <nav aria-label={t('exam.sectionTabs')} className="section-tabs" data-testid="section-tabs">
            {sections.map((s) => {
              const first = items.findIndex((i) => i.section === s);
              const count = items.filter((i) => i.section === s).length;
              return (
                <Button
                  key={s}
                  size="small"
                  type={current?.section === s ? 'primary' : 'default'}
                  aria-current={current?.section === s ? 'true' : undefined}
                  onClick={() => go(first, 'goto')}
                  data-testid="section-tab"
                  data-section={s}
                >
                  {t('exam.sectionTab', { name: t(`section.${s}`), n: count })}
                </Button>
              );
            })}
          </nav>
          {sections.map((s) => (
            <section key={s} aria-label={t(`section.${s}`)}>
              <Typography.Text strong>{t(`section.${s}`)}</Typography.Text>
              <ol className="card-grid">
                {items.map((item, i) => {
                  if (item.section !== s) return null;
                  const save = saveStateOf(snapshot, keyOf(item));
                  const done = answered(item);
                  return (
                    <li key={keyOf(item)}>
                      <button
                        type="button"
                        className={`card-cell ${done ? 'is-answered' : ''} save-${save} ${i === index ? 'is-current' : ''}`}
                        aria-current={i === index ? 'step' : undefined}
                        aria-label={t('exam.cardItem', {
                          n: i + 1,
                          answered: t(done ? 'exam.legend.answered' : 'exam.legend.unanswered'),
                          save: t(SAVE_KEYS[save]),
                        })}
                        onClick={() => go(i, 'goto')}
                        data-testid="card-item"
                        data-kind={item.kind}
                        data-id={item.id}
                        data-answered={done ? '1' : '0'}
                        data-save={save}
                      >
                        {i + 1}
                        <span className="save-mark" aria-hidden>
                          {save === 'saved' ? '' : save === 'saving' ? '…' : '!'}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ol>
            </section>
          ))}
          <ul className="card-legend" aria-label={t('exam.legend')}>
            <li>
              <span className="card-cell legend-cell is-answered" aria-hidden /> {t('exam.legend.answered')}
            </li>
            <li>
              <span className="card-cell legend-cell" aria-hidden /> {t('exam.legend.unanswered')}
            </li>
            <li>
              <span className="card-cell legend-cell save-saving" aria-hidden>
                <span className="save-mark">…</span>
              </span>{' '}
              {t('exam.legend.saving')}
            </li>
            <li>
              <span className="card-cell legend-cell save-unsaved" aria-hidden>
                <span className="save-mark">!</span>
              </span>{' '}
              {t('exam.legend.unsaved')}
            </li>
          </ul>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="shortcuts">
            {t('exam.shortcuts')}
          </Typography.Paragraph>
        </aside>

        <main className="question-pane" id="main" tabIndex={-1}>
          {order.isError && <Alert type="error" showIcon title={errorText(order.error)} />}
          {card.isError && <Alert type="error" showIcon title={errorText(card.error)} />}
          {current && (
            <QuestionPanel
              key={keyOf(current)}
              item={current}
              number={index + 1}
              examId={examId}
              allowCopy={detail.is_copy_question === 1}
              value={answers.get(keyOf(current))}
              adopt={adoptServerAnswer}
              onChange={(v) => change(current, v)}
              ctx={ctx}
            />
          )}
          <Flex justify="space-between" style={{ marginTop: 16 }}>
            <Button onClick={() => go(index - 1, 'prevAndNext')} disabled={index <= 0} data-testid="prev">
              {t('exam.prev')}
            </Button>
            <Button
              type="primary"
              onClick={() => go(index + 1, 'prevAndNext')}
              disabled={index >= items.length - 1}
              data-testid="next"
            >
              {t('exam.next')}
            </Button>
          </Flex>
        </main>
      </div>
    </div>
  );
}

/** Loaded question data of either kind. */
type Loaded =
  | { kind: 'subject'; data: Awaited<ReturnType<typeof request<typeof api.showNew>>> }
  | { kind: 'ceping'; data: Awaited<ReturnType<typeof request<typeof api.cepingShowNew>>> };

/** A load the specification refuses: a success envelope with a message. The page shows it as a warning. */
class SubjectWarning extends Error {}

async function loadQuestion(examId: number, item: Item): Promise<Loaded> {
  if (item.kind === 'ceping') {
    const data = await cached(`ceping:${examId}:${item.id}`, () =>
      request(api.cepingShowNew, { query: { exam_id: examId, subject_id: item.id } }),
    );
    return { kind: 'ceping', data };
  }
  const data = await cached(`subject:${examId}:${item.id}`, async () => {
    const res = await requestWithMessage(api.showNew, { query: { subject_id: item.id, exam_id: examId } });
    if (res.msg) throw new SubjectWarning(res.msg);
    return res.data;
  });
  return { kind: 'subject', data };
}

function QuestionPanel(props: {
  item: Item;
  number: number;
  examId: number;
  allowCopy: boolean;
  value: AnswerValue | string | undefined;
  adopt: (key: string, value: AnswerValue | string | undefined) => void;
  onChange: (value: AnswerValue | string) => void;
  ctx: QuestionContext;
}) {
  const { t } = useI18n();
  const { item, adopt } = props;
  const q = useQuery({
    queryKey: ['question', props.examId, item.kind, item.id],
    queryFn: () => loadQuestion(props.examId, item),
    staleTime: Infinity,
  });

  useEffect(() => {
    if (!q.data) return;
    if (q.data.kind === 'ceping') adopt(keyOf(item), q.data.data.answer ?? undefined);
    else adopt(keyOf(item), parseStored(q.data.data.answer?.value));
  }, [q.data, adopt, item]);

  // Copying the question text is stopped by the risk detectors (proctor/risks.ts) on everything in .no-copy.

  if (q.isError) {
    const warning = q.error instanceof SubjectWarning || isApiError(q.error);
    return (
      <Alert
        type={warning ? 'warning' : 'error'}
        showIcon
        role="alert"
        title={q.error instanceof SubjectWarning ? q.error.message : t('exam.loadFailed', { msg: errorText(q.error) })}
        data-testid="question-warning"
      />
    );
  }
  if (!q.data) return <Skeleton active />;

  const heading = (type: number, points?: number) => (
    <Flex align="center" gap={8} wrap>
      <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }} id="question-heading" tabIndex={-1}>
        {t('exam.question', { n: props.number })}
      </Typography.Title>
      <Tag>{t(`exam.type.${type}` as MessageKey)}</Tag>
      {points !== undefined && <Tag color="blue">{t('exam.points', { n: points })}</Tag>}
    </Flex>
  );

  if (q.data.kind === 'ceping') {
    const s = q.data.data.subject;
    return (
      <article className="question" data-testid="question" data-type="ceping" data-id={s.id}>
        {heading(11)}
        <Typography.Paragraph type="secondary">{t('exam.evaluation.note')}</Typography.Paragraph>
        <div className={props.allowCopy ? '' : 'no-copy'}>
          <Html html={s.stem} className="question-text" />
        </div>
        <Radio.Group
          aria-labelledby="question-heading"
          value={typeof props.value === 'string' ? props.value : undefined}
          onChange={(e) => props.onChange(String(e.target.value))}
          className="option-group"
          data-testid="choice-group"
        >
          {s.options.map((o) => (
            <Radio key={o.id} value={o.id} data-testid="choice-option" data-option={o.id}>
              <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
            </Radio>
          ))}
        </Radio.Group>
        <PreviewKeys examId={props.examId} subjectId={s.id} />
      </article>
    );
  }

  const subject = q.data.data.subject;
  return (
    <article className="question" data-testid="question" data-type={subject.type} data-id={subject.id}>
      {heading(subject.type, subject.score)}
      <div className={props.allowCopy ? 'question-copyable' : 'no-copy'}>
        <Html html={subject.stem} className="question-text" />
        <QuestionBody
          subject={subject}
          value={typeof props.value === 'string' ? undefined : props.value}
          onChange={props.onChange}
          ctx={props.ctx}
        />
      </div>
      <PreviewKeys examId={props.examId} subjectId={subject.id} />
    </article>
  );
}

/** The countdown on the server's clock. Screen readers hear it only at the milestones, not every second. */
function Timer({ endTime, onTimeUp }: { endTime: number | null; onTimeUp: () => void }) {
  const { t } = useI18n();
  const remaining = useRemaining(endTime);
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | null>(null);
  const fired = useRef(false);
  useEffect(() => {
    if (remaining === null) return;
    const crossed = crossedMilestone(previous.current, remaining);
    previous.current = remaining;
    if (crossed !== null)
      setAnnouncement(crossed === 1 ? t('exam.milestoneOne') : t('exam.milestone', { min: crossed }));
    if (remaining === 0 && !fired.current) {
      fired.current = true;
      setAnnouncement(t('exam.timeUp'));
      onTimeUp();
    }
  }, [remaining, t, onTimeUp]);
  if (remaining === null) return null;
  return (
    <div className="exam-timer">
      <span className="timer-label">{t('exam.timeLeft')}</span>
      <span
        role="timer"
        aria-label={t('exam.timeLeftLabel', { time: formatDuration(remaining) })}
        className={remaining < 5 * 60_000 ? 'timer-value is-low' : 'timer-value'}
        data-testid="exam-timer"
        data-remaining-ms={remaining}
        data-server-now={serverNow()}
      >
        {formatDuration(remaining)}
      </span>
      <span className="visually-hidden" aria-live="assertive" data-testid="timer-announcement">
        {announcement}
      </span>
    </div>
  );
}
