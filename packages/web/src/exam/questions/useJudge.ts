import type { LanguageId, Subject } from '@examhall/contract';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { judgeRuns } from '../judge.js';

/** What the panel needs from the question and the exam page. */
export interface JudgePanelProps {
  examId: number;
  subject: Pick<Subject, 'id' | 'type' | 'samples'>;
  language: LanguageId;
  code: string;
  /**
   * Sends what the outbox holds and waits until it is sent (or the wait runs out); for a submit (`submit` true) the
   * code shown becomes the answer first, even an untouched starter, while a run leaves the answer as it is.
   */
  save: (submit: boolean) => Promise<void>;
  /** The server said the attempt is over. */
  onExamFinished: () => void;
}

/** Starting a job from the panel; the editor's Ctrl+Enter calls it as well. */
export type StartJudge = (how: 'samples' | 'custom' | 'submit') => void;

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
        () => save(how === 'submit'),
      )
      .then((r) => {
        if (r.error?.code === 'exam_finished') onExamFinished();
      });
  };
  /** Ctrl+Enter: the samples when there are any, else the custom input. */
  const runDefault = () => start(hasSamples ? 'samples' : 'custom');

  return { run, hasSamples, customOpen, setCustomOpen, input, setInput, problem, busy, start, runDefault };
}
