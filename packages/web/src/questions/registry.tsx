/**
 * The web app's question kinds: for each kind of the contract's QUESTION_REGISTRY, its label, the renderer
 * the exam page shows candidates, and the editor the bank uses. Adding a kind is one entry here (the
 * contract's entry and the draft's defaults in drafts.ts are checked to exist by the compiler).
 */
import type { QuestionKind } from '@examhall/contract';
import type { ComponentType } from 'react';
import type { Language } from '../i18n/format.js';
import { FillBlankEditor } from './edit/BlanksEditor.js';
import {
  EvaluationEditor,
  GradientEditor,
  IndefiniteEditor,
  MultipleEditor,
  SingleEditor,
  TrueFalseEditor,
} from './edit/ChoiceEditors.js';
import { ListeningEditor, ReadingEditor } from './edit/CompoundEditors.js';
import { ProgrammingEditor } from './edit/ProgrammingEditor.js';
import { ProgrammingQaEditor, QaEditor } from './edit/QaEditors.js';
import type { BodyEditorProps } from './edit/types.js';
import { CodeAnswer } from './render/CodeAnswer.js';
import { QaAnswer } from './render/QaAnswer.js';
import { PickRenderer } from './render/SubInput.js';
import { ListeningAnswer, ReadingAnswer } from './render/SubsAnswer.js';
import type { RendererProps } from './render/types.js';

/** What the web app knows about one kind. */
export interface WebQuestionEntry<K extends QuestionKind> {
  /** Its name in each language. */
  label: Readonly<Record<Language, string>>;
  /** The answer area candidates see under the stem. */
  Renderer: ComponentType<RendererProps>;
  /** The editor of its content and key. */
  Editor: ComponentType<BodyEditorProps<K>>;
}

/** Every kind's label, renderer and editor. */
export const WEB_QUESTION_REGISTRY: { readonly [K in QuestionKind]: WebQuestionEntry<K> } = {
  single: {
    label: { 'zh-CN': '单选题', 'en-US': 'Single choice' },
    Renderer: PickRenderer,
    Editor: SingleEditor,
  },
  multiple: {
    label: { 'zh-CN': '多选题', 'en-US': 'Multiple choice' },
    Renderer: PickRenderer,
    Editor: MultipleEditor,
  },
  indefinite: {
    label: { 'zh-CN': '不定项选择题', 'en-US': 'Indefinite choice' },
    Renderer: PickRenderer,
    Editor: IndefiniteEditor,
  },
  fill_blank: {
    label: { 'zh-CN': '填空题', 'en-US': 'Fill in the blanks' },
    Renderer: PickRenderer,
    Editor: FillBlankEditor,
  },
  qa: {
    label: { 'zh-CN': '问答题', 'en-US': 'Q&A' },
    Renderer: QaAnswer,
    Editor: QaEditor,
  },
  programming: {
    label: { 'zh-CN': '编程题', 'en-US': 'Programming' },
    Renderer: CodeAnswer,
    Editor: ProgrammingEditor,
  },
  true_false: {
    label: { 'zh-CN': '判断题', 'en-US': 'True/false' },
    Renderer: PickRenderer,
    Editor: TrueFalseEditor,
  },
  programming_qa: {
    label: { 'zh-CN': '编程问答题', 'en-US': 'Programming Q&A' },
    Renderer: CodeAnswer,
    Editor: ProgrammingQaEditor,
  },
  reading: {
    label: { 'zh-CN': '阅读理解', 'en-US': 'Reading' },
    Renderer: ReadingAnswer,
    Editor: ReadingEditor,
  },
  listening: {
    label: { 'zh-CN': '听力题', 'en-US': 'Listening' },
    Renderer: ListeningAnswer,
    Editor: ListeningEditor,
  },
  gradient: {
    label: { 'zh-CN': '梯度选择题', 'en-US': 'Gradient choice' },
    Renderer: PickRenderer,
    Editor: GradientEditor,
  },
  evaluation: {
    label: { 'zh-CN': '测评题', 'en-US': 'Evaluation item' },
    Renderer: PickRenderer,
    Editor: EvaluationEditor,
  },
};

/** A kind's name in a language. */
export function kindLabel(kind: QuestionKind, lang: Language): string {
  return WEB_QUESTION_REGISTRY[kind].label[lang];
}
