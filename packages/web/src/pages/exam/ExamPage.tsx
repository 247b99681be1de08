import { answerState, ExamPhase, type AttemptView, type ExamDetail, monitorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { errorText, request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { keyOf, summarize, type CardItem, type CardSummary } from '../../exam/card.js';
import { alignClock, alignWithOffset } from '../../exam/clock.js';
import { isNetworkFailure, recall, remember } from '../../exam/offlineCache.js';
import { saveStateOf } from '../../exam/outbox.js';
import { pathForPhase, useExamDetail, useExamParams } from '../../exam/queries.js';
import type { QuestionContext } from '../../exam/questions/QuestionBody.js';
import { useReviewMarks } from '../../exam/reviewMarks.js';
import { useAnswers } from '../../exam/useAnswers.js';
import { useAttemptEnd } from '../../exam/useAttemptEnd.js';
import { useExamItems } from '../../exam/useExamItems.js';
import { useExamOutbox } from '../../exam/useExamOutbox.js';
import { useAnswerEvents, useNavigation } from '../../exam/useNavigation.js';
import { useSubmit } from '../../exam/useSubmit.js';
import { useI18n } from '../../i18n/index.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { Flex } from '../../ui/Flex.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { showToast } from '../../ui/toast.js';
import { ExamLoadError } from './ExamLoadError.js';
import { AnswerCard, type CellStatus } from './room/AnswerCard.js';
import { ExamBanners } from './room/ExamBanners.js';
import { ExamHeader, NarrowNotice } from './room/ExamHeader.js';
import { QuestionPanel } from './room/QuestionPanel.js';
import { useSessionKeeper } from './room/sessionKeeper.js';
import { SubmitSummary } from './room/SubmitSummary.js';
import { useProctoring } from './room/useProctoring.js';

/** The notice and login form of a lost session, loaded only when a session is lost. */
const SessionExpired = lazy(() => import('./room/SessionExpired.js'));

/** How long a run or submit waits for the code answer to be saved; the judge call carries the code anyway. */
const JUDGE_SAVE_WAIT_MS = 8_000;

/** The attempt: resumed from the server, or the copy kept in this browser when there is no network. */
async function loadAttempt(examId: number, anid: number): Promise<AttemptView> {
  try {
    const data = await request(monitorCalls.startExam, { body: { exam_id: examId, anid } });
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
  const { t } = useI18n();

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
        <ExamLoadError error={failed} />
      </div>
    );
  }
  if (!detail.data || !attempt.data || !clock.data) {
    return (
      <div className="page-body">
        <div className="plain-card">
          <Skeleton label={t('common.loading')} />
        </div>
      </div>
    );
  }
  return <ExamRoom detail={detail.data} attempt={attempt.data} anid={anid} />;
}

/** The exam room: the hooks that keep answers, proctoring and the clock, and the parts of the page. */
function ExamRoom({ detail, attempt, anid }: { detail: ExamDetail; attempt: AttemptView; anid: number }) {
  const { t } = useI18n();
  useDocumentTitle(detail.name);
  // The submit dialog's summary, taken when it opens; null while it is closed.
  const [confirming, setConfirming] = useState<CardSummary | null>(null);
  const examId = detail.id;
  const hasEvaluation = detail.countNum.evaluation > 0;

  const session = useSessionKeeper();
  const { box, snapshot, error: boxError, setError: setBoxError } = useExamOutbox(examId);
  const { risks, warnings, live, endedReason } = useProctoring(detail, attempt, box);
  const { items, shapes, stored, error: itemsError } = useExamItems(examId, hasEvaluation);
  const { answers, adopt, change } = useAnswers(box, setBoxError);
  const record = useAnswerEvents(box);
  const { index, current, go } = useNavigation(examId, items, box !== null, record);
  const { marks, toggle } = useReviewMarks(attempt.id);
  const submit = useSubmit({ attempt, anid, hasEvaluation, box, current, record });
  const [endedOnJudge, setEndedOnJudge] = useState(false);
  useAttemptEnd({
    examId,
    anid,
    finished: snapshot.finished,
    endedOnJudge,
    reason: endedReason,
    unsent: snapshot.total,
  });

  // The page's answer, else the server's once the question has loaded, else the server's flag from the order list.
  const stateOf = (item: CardItem) => {
    const key = keyOf(item);
    const value = answers.get(key) ?? stored.get(key);
    if (value !== undefined) return answerState(value, shapes.get(key));
    return item.answeredOnServer ? 'answered' : 'unanswered';
  };
  const statusOf = (item: CardItem): CellStatus => ({
    state: stateOf(item),
    save: saveStateOf(snapshot, keyOf(item)),
    marked: marks.has(keyOf(item)),
  });
  const goto = (to: number) => go(to, 'goto');
  const toggleCurrent = useCallback(() => current && toggle(keyOf(current)), [current, toggle]);
  useMarkShortcut(toggleCurrent);

  const confirmSubmit = () => setConfirming(summarize(items, stateOf, (item) => marks.has(keyOf(item))));

  const ctx: QuestionContext = {
    examId,
    allowPaste: detail.is_paste === 1,
    allowUpload: detail.is_upload_file === 1,
    warnPaste: () => void showToast('warning', t('exam.pasteBlocked'), 'paste-blocked'),
    saveNow: async () => {
      if (box) await box.drain(JUDGE_SAVE_WAIT_MS);
    },
    examFinished: () => setEndedOnJudge(true),
  };

  return (
    <div className="exam-room" data-live={live ? '1' : '0'}>
      <ExamHeader
        detail={detail}
        attempt={attempt}
        cutsLeft={risks.state.cutsLeft}
        snapshot={snapshot}
        submitting={submit.submitting}
        onTimeUp={() => void submit.submit(true)}
        onSubmit={confirmSubmit}
      />
      <NarrowNotice />
      <ConfirmDialog
        open={confirming !== null}
        title={t('exam.submitConfirmTitle')}
        okText={t('exam.submit')}
        cancelText={t('common.cancel')}
        okTestId="submit-confirm"
        onOk={() => submit.submit(false)}
        onClose={() => setConfirming(null)}
      >
        {confirming && (
          <SubmitSummary
            summary={confirming}
            onJump={(i) => {
              setConfirming(null);
              goto(i);
            }}
          />
        )}
      </ConfirmDialog>
      {session.expired && (
        <Suspense fallback={null}>
          <SessionExpired
            open
            onRenewed={() => {
              session.renewed();
              // Changes waiting for the new session go now rather than at the next retry.
              box?.retryNow();
            }}
          />
        </Suspense>
      )}
      <ExamBanners
        examId={examId}
        items={items}
        snapshot={snapshot}
        risks={risks}
        warnings={warnings}
        errors={[boxError, itemsError ? errorText(itemsError) : null]}
        submitting={submit.submitting}
        submitError={submit.error}
      />
      <div className="exam-body">
        <AnswerCard items={items} index={index} statusOf={statusOf} go={goto} />
        <main className="question-pane" id="main" tabIndex={-1}>
          {current && (
            <QuestionPanel
              key={keyOf(current)}
              item={current}
              number={index + 1}
              examId={examId}
              allowCopy={detail.is_copy_question === 1}
              value={answers.get(keyOf(current))}
              adopt={adopt}
              onChange={(v) => change(current, v)}
              marked={marks.has(keyOf(current))}
              onToggleMark={toggleCurrent}
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

/** Alt+M marks or unmarks the current question for review. */
function useMarkShortcut(toggle: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyM') return;
      e.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}
