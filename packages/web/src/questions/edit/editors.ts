/** The bank's editor of each question kind's content and key (the console's side of the web registry). */
import type { QuestionKind } from '@examhall/contract';
import type { ComponentType } from 'react';
import { FillBlankEditor } from './BlanksEditor.js';
import {
  EvaluationEditor,
  GradientEditor,
  IndefiniteEditor,
  MultipleEditor,
  SingleEditor,
  TrueFalseEditor,
} from './ChoiceEditors.js';
import { ListeningEditor, ReadingEditor } from './CompoundEditors.js';
import { ProgrammingEditor } from './ProgrammingEditor.js';
import { ProgrammingQaEditor, QaEditor } from './QaEditors.js';
import type { BodyEditorProps } from './types.js';

/** Every kind's editor. */
export const QUESTION_EDITORS: { readonly [K in QuestionKind]: ComponentType<BodyEditorProps<K>> } = {
  single: SingleEditor,
  multiple: MultipleEditor,
  indefinite: IndefiniteEditor,
  fill_blank: FillBlankEditor,
  qa: QaEditor,
  programming: ProgrammingEditor,
  true_false: TrueFalseEditor,
  programming_qa: ProgrammingQaEditor,
  reading: ReadingEditor,
  listening: ListeningEditor,
  gradient: GradientEditor,
  evaluation: EvaluationEditor,
};
