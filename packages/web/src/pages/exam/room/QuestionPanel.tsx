import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { errorText, isApiError } from '../../../api/client.js';
import { parseStored } from '../../../exam/answers.js';
import { keyOf, type CardItem } from '../../../exam/card.js';
import { Html } from '../../../exam/questions/Html.js';
import { QuestionBody, type QuestionContext } from '../../../exam/questions/QuestionBody.js';
import { loadQuestion, questionQueryKey, SubjectWarning } from '../../../exam/questionLoad.js';
import type { PageAnswer } from '../../../exam/useAnswers.js';
import { useI18n } from '../../../i18n/index.js';
import { Alert } from '../../../ui/Alert.js';
import { Button } from '../../../ui/Button.js';
import { Radio, RadioGroup } from '../../../ui/ChoiceGroup.js';
import { Flex } from '../../../ui/Flex.js';
import { Icon } from '../../../ui/icons.js';
import { Skeleton } from '../../../ui/Skeleton.js';
import { Tag } from '../../../ui/Tag.js';
import { Paragraph, Title } from '../../../ui/Typography.js';
import { PreviewKeys } from '../PreviewKeys.js';
import { storedTypeLabel } from '../../../questions/labels.js';

/** One question with its answer input; the server's answer is adopted once it has loaded. */
export function QuestionPanel(props: {
  item: CardItem;
  number: number;
  examId: number;
  allowCopy: boolean;
  value: PageAnswer | undefined;
  adopt: (key: string, value: PageAnswer | undefined) => void;
  onChange: (value: PageAnswer) => void;
  marked: boolean;
  onToggleMark: () => void;
  ctx: QuestionContext;
}) {
  const { t } = useI18n();
  const { item, adopt } = props;
  const q = useQuery({
    queryKey: questionQueryKey(props.examId, item),
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
        title={q.error instanceof SubjectWarning ? q.error.message : t('exam.loadFailed', { msg: errorText(q.error) })}
        data-testid="question-warning"
      />
    );
  }
  if (!q.data) return <Skeleton label={t('common.loading')} />;

  const heading = (type: number, points?: number) => (
    <QuestionHeading
      number={props.number}
      type={type}
      section={item.section}
      points={points}
      marked={props.marked}
      onToggleMark={props.onToggleMark}
    />
  );

  if (q.data.kind === 'ceping') {
    const s = q.data.data.subject;
    return (
      <Article type="ceping" id={s.id} heading={heading(item.type)} examId={props.examId}>
        <Paragraph type="secondary">{t('exam.evaluation.note')}</Paragraph>
        <div className={props.allowCopy ? '' : 'no-copy'}>
          <Html html={s.stem} className="question-text" />
        </div>
        <RadioGroup
          aria-labelledby="question-heading"
          value={typeof props.value === 'string' ? props.value : undefined}
          onChange={props.onChange}
          className="option-group"
          data-testid="choice-group"
        >
          {s.options.map((o) => (
            <Radio key={o.id} value={o.id} data-testid="choice-option" data-option={o.id}>
              <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
            </Radio>
          ))}
        </RadioGroup>
      </Article>
    );
  }

  const subject = q.data.data.subject;
  return (
    <Article type={subject.type} id={subject.id} heading={heading(subject.type, subject.score)} examId={props.examId}>
      <div className={props.allowCopy ? 'question-copyable' : 'no-copy'}>
        <Html html={subject.stem} className="question-text" />
        <QuestionBody
          subject={subject}
          value={typeof props.value === 'string' ? undefined : props.value}
          onChange={props.onChange}
          ctx={props.ctx}
        />
      </div>
    </Article>
  );
}

/** The frame of a question: its heading, its content, and the keys in a preview. */
function Article(p: { type: number | 'ceping'; id: number; heading: ReactNode; examId: number; children: ReactNode }) {
  return (
    <article className="question" data-testid="question" data-type={p.type} data-id={p.id}>
      {p.heading}
      {p.children}
      <PreviewKeys examId={p.examId} subjectId={p.id} />
    </article>
  );
}

/** The question's number, type and points, and the switch that marks it for review. */
function QuestionHeading(p: {
  number: number;
  type: number;
  section: CardItem['section'];
  points: number | undefined;
  marked: boolean;
  onToggleMark: () => void;
}) {
  const { t, lang } = useI18n();
  return (
    <Flex align="center" gap={8} wrap>
      <Title level={2} style={{ fontSize: 18, margin: 0 }} id="question-heading" tabIndex={-1}>
        {t('exam.question', { n: p.number })}
      </Title>
      <Tag data-testid="question-kind">{storedTypeLabel(p.type, p.section, lang)}</Tag>
      {p.points !== undefined && <Tag color="blue">{t('exam.points', { n: p.points })}</Tag>}
      <Button
        size="small"
        type={p.marked ? 'primary' : 'default'}
        icon={<Icon name="flag" />}
        aria-pressed={p.marked}
        onClick={p.onToggleMark}
        style={{ marginLeft: 'auto' }}
        data-testid="mark-review"
        data-marked={p.marked ? '1' : '0'}
      >
        {t(p.marked ? 'exam.unmark' : 'exam.mark')}
      </Button>
    </Flex>
  );
}
