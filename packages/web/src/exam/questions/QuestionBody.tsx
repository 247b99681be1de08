import { kindOfStored, type AnswerValue, type Subject } from '@examhall/contract';
import { Suspense } from 'react';
import { useI18n } from '../../i18n/index.js';
import { WEB_QUESTION_REGISTRY } from '../../questions/registry.js';
import type { QuestionContext } from '../../questions/render/types.js';
import { Spin } from '../../ui/Spin.js';

export type { QuestionContext } from '../../questions/render/types.js';

interface Props {
  subject: Subject;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  ctx: QuestionContext;
}

/** The answer area of a question: its kind's renderer from the web registry. */
export function QuestionBody({ subject, value, onChange, ctx }: Props) {
  const { t } = useI18n();
  // A type outside its usual section is still shown by its type.
  const kind = kindOfStored(subject.type, subject.section) ?? kindOfStored(subject.type, 'major');
  if (!kind) return null;
  const { Renderer } = WEB_QUESTION_REGISTRY[kind];
  // Renderers with an editor load on first use.
  return (
    <Suspense fallback={<Spin block label={t('common.loading')} />}>
      <Renderer subject={subject} value={value} onChange={onChange} ctx={ctx} />
    </Suspense>
  );
}
