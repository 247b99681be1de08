/** What a candidate renderer gets from the exam page. */
import type { AnswerValue, Subject } from '@examhall/contract';
import type { SubValue } from '../../exam/answers.js';

/** What a question needs from the exam page. */
export interface QuestionContext {
  examId: number;
  allowPaste: boolean;
  allowUpload: boolean;
  /** Says that pasting is not allowed. */
  warnPaste: () => void;
  /** Sends every stored change now and waits for the receipts (or a time limit), before code is judged. */
  saveNow: () => Promise<void>;
  /** The server said the attempt is over: the page moves to the result. */
  examFinished: () => void;
}

/** Props of a kind's candidate renderer: the answer area under the stem. */
export interface RendererProps {
  subject: Subject;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  ctx: QuestionContext;
}

/** Props of the input of a question or sub-question answered by picking or filling blanks. */
export interface SubInputProps {
  subject: Pick<Subject, 'id' | 'type' | 'options' | 'blanks'>;
  value: SubValue | undefined;
  onChange: (v: SubValue) => void;
  pasteBlocked: (() => void) | null;
  label: string;
}
