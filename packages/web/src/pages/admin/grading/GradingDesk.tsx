import { api, type GradingItemRef } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';
import { AnswerView } from './AnswerView.js';
import { useShortcuts } from './keys.js';
import { useMark } from './useMark.js';

/**
 * The grader's desk: one answer at a time from the caller's queue. Answers marked here are kept in order, so
 * Previous (K, ←) goes back through them and Next (J, →) forward again and then to the queue. A mark takes its
 * scorer away: the focus goes on to the next answer's first box, or to the word that the queue is done.
 */
export function GradingDesk({ examId }: { examId: number }) {
  const { t } = useI18n();
  const [seen, setSeen] = useState<GradingItemRef[]>([]);
  // An index into `seen`; seen.length is the live queue.
  const [at, setAt] = useState(0);
  const next = useQuery({
    queryKey: queryKey(api.gradingNext, { exam_id: examId }),
    queryFn: ({ signal }) => request(api.gradingNext, { query: { exam_id: examId }, signal }),
  });
  // True from a mark until the grader moves on by hand: where the focus goes once the marked answer is gone.
  const [justMarked, setJustMarked] = useState(false);
  const doneRef = useRef<HTMLDivElement>(null);
  const mark = useMark(examId, (ref) => {
    setSeen((list) => [...list, ref]);
    setAt(seen.length + 1);
    setJustMarked(true);
  });
  const live = at >= seen.length;
  const current = live ? (next.data?.next ?? null) : seen[at]!;
  const done = live && next.data !== undefined && next.data.next === null;
  const prev = () => {
    setJustMarked(false);
    setAt((i) => Math.max(0, i - 1));
  };
  const forward = () => {
    setJustMarked(false);
    setAt((i) => Math.min(seen.length, i + 1));
  };
  useEffect(() => {
    if (justMarked && done) doneRef.current?.focus();
  }, [justMarked, done]);
  // Previous turns disabled at the first answer and Next at the queue, and a disabled button drops the focus: the
  // other one takes it (before the browser drops it).
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const focused = document.activeElement;
    if (at === 0 && focused === prevRef.current) nextRef.current?.focus();
    if (live && focused === nextRef.current) prevRef.current?.focus();
  }, [at, live]);
  useShortcuts({ j: forward, ArrowRight: forward, k: prev, ArrowLeft: prev });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="grading-desk">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space>
          <Button ref={prevRef} onClick={prev} disabled={at === 0} data-testid="grading-prev">
            {t('console.grading.prev')}
          </Button>
          <Button ref={nextRef} onClick={forward} disabled={live} data-testid="grading-next">
            {t('console.grading.next')}
          </Button>
          {next.data && (
            <Tag color="blue" data-testid="grading-left">
              {t('console.grading.left', { n: next.data.left })}
            </Tag>
          )}
        </Space>
        <Typography.Text type="secondary">{t('console.grading.keys')}</Typography.Text>
      </Flex>
      <LoadError error={next.error} />
      {live && next.isPending && <Skeleton active />}
      {done && (
        <div ref={doneRef} tabIndex={-1}>
          <Empty description={t('console.grading.done')} data-testid="grading-done" />
        </div>
      )}
      {current && (
        <AnswerView
          key={`${current.attempt_id}-${current.question_id}`}
          answer={current}
          busy={mark.isPending}
          focusScorer={justMarked}
          onMark={(m) => mark.mutate({ ref: current, mark: m, reconcile: false })}
        />
      )}
    </Space>
  );
}
