import type { AnswerValue, Subject } from '@examhall/contract';
import { useState } from 'react';
import { Html } from '../../../../exam/questions/Html.js';
import { QuestionBody, type QuestionContext } from '../../../../exam/questions/QuestionBody.js';

/** Nothing to save or judge: the preview only shows the question. */
const PREVIEW_CONTEXT: QuestionContext = {
  examId: 0,
  allowPaste: true,
  allowUpload: false,
  warnPaste: () => undefined,
  saveNow: async () => undefined,
  examFinished: () => undefined,
};

/** An imported question as candidates will see it: the stem and the kind's own answer area (answers stay here). */
export function CandidateView({ subject }: { subject: Subject }) {
  const [value, setValue] = useState<AnswerValue | undefined>(undefined);
  return (
    <div className="question" data-testid="import-rendered">
      {subject.passage && <Html html={subject.passage} className="question-text" />}
      <Html html={subject.stem} className="question-text" />
      <QuestionBody subject={subject} value={value} onChange={setValue} ctx={PREVIEW_CONTEXT} />
    </div>
  );
}
