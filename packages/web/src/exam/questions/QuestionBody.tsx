import { kindOfStored, type AnswerValue, type Subject } from '@examhall/contract';
import { Spin } from 'antd';
import { Suspense } from 'react';
import { WEB_QUESTION_REGISTRY } from '../../questions/registry.js';
import type { QuestionContext } from '../../questions/render/types.js';

export type { QuestionContext } from '../../questions/render/types.js';

interface Props {
  subject: Subject;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  ctx: QuestionContext;
}

/** The answer area of a question: its kind's renderer from the web registry. */
export function QuestionBody({ subject, value, onChange, ctx }: Props) {
  // A type outside its usual section is still shown by its type.
  const kind = kindOfStored(subject.type, subject.section) ?? kindOfStored(subject.type, 'major');
  if (!kind) return null;
  const { Renderer } = WEB_QUESTION_REGISTRY[kind];
  // Renderers with an editor load on first use.
  return (
    <Suspense fallback={<Spin />}>
      <Renderer subject={subject} value={value} onChange={onChange} ctx={ctx} />
    </Suspense>
  );
}
