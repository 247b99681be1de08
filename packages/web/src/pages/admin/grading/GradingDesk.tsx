import { api, type GradingItemRef } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';
import { AnswerView } from './AnswerView.js';
import { useShortcuts } from './keys.js';
import { useMark } from './useMark.js';

/**
 * The grader's desk: one answer at a time from the caller's queue. Answers marked here are kept in order, so
 * Previous (K, ←) goes back through them and Next (J, →) forward again and then to the queue.
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
  const mark = useMark(examId, (ref) => {
    setSeen((list) => [...list, ref]);
    setAt(seen.length + 1);
  });
  const live = at >= seen.length;
  const current = live ? (next.data?.next ?? null) : seen[at]!;
  const prev = () => setAt((i) => Math.max(0, i - 1));
  const forward = () => setAt((i) => Math.min(seen.length, i + 1));
  useShortcuts({ j: forward, ArrowRight: forward, k: prev, ArrowLeft: prev });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="grading-desk">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space>
          <Button onClick={prev} disabled={at === 0} data-testid="grading-prev">
            {t('console.grading.prev')}
          </Button>
          <Button onClick={forward} disabled={live} data-testid="grading-next">
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
      {live && next.data && !next.data.next && (
        <Empty description={t('console.grading.done')} data-testid="grading-done" />
      )}
      {current && (
        <AnswerView
          key={`${current.attempt_id}-${current.question_id}`}
          answer={current}
          busy={mark.isPending}
          onMark={(m) => mark.mutate({ ref: current, mark: m, reconcile: false })}
        />
      )}
    </Space>
  );
}
