import type { JobView, SimilarityQuestion } from '@examhall/contract';
import { App, Button, Select, Space } from 'antd';
import { useState } from 'react';
import { errorText } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { JobProgress } from '../../jobs/JobProgress.js';
import { useGradingExams, useRunSimilarity } from './queries.js';

/** The exam and programming question the page is about, and the button that computes the question's pairs. */
export function Pickers(props: {
  examId: number | undefined;
  questionId: number | undefined;
  questions: readonly SimilarityQuestion[];
  canRun: boolean;
  onPick: (patch: { exam?: number | undefined; question?: number | undefined }) => void;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const exams = useGradingExams();
  const [job, setJob] = useState<JobView | null>(null);
  const run = useRunSimilarity(setJob);
  const question = props.questions.find((q) => q.question_id === props.questionId);
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Select
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 260 }}
        placeholder={t('sim.exam.placeholder')}
        aria-label={t('sim.exam')}
        loading={exams.isLoading}
        value={props.examId}
        onChange={(exam: number) => props.onPick({ exam, question: undefined })}
        options={(exams.data?.list ?? []).map((e) => ({ value: e.id, label: e.name }))}
        data-testid="similarity-exam"
      />
      <Select
        style={{ width: 360 }}
        placeholder={t('sim.question.placeholder')}
        aria-label={t('sim.question')}
        disabled={props.examId === undefined}
        value={question?.question_id}
        onChange={(q: number) => props.onPick({ question: q })}
        options={props.questions.map((q) => ({
          value: q.question_id,
          label: t('sim.question.option', { title: q.title || `#${q.question_id}`, n: q.submissions }),
        }))}
        data-testid="similarity-question"
      />
      {props.canRun && props.examId !== undefined && question && (
        <Button
          type="primary"
          loading={run.isPending}
          onClick={() =>
            run.mutate(
              { examId: props.examId!, questionId: question.question_id },
              { onError: (e) => void message.error(errorText(e)) },
            )
          }
          data-testid="similarity-run"
        >
          {question.computed_at === null ? t('sim.run') : t('sim.rerun')}
        </Button>
      )}
      {run.isPending && job && <JobProgress job={job} />}
    </Space>
  );
}
