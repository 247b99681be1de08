/**
 * The web app's question kinds: for each kind of the contract's QUESTION_REGISTRY, its label and the renderer
 * the exam page shows candidates. The bank's editor of each kind is in edit/editors.ts, so the exam page never
 * loads the console's editors. Adding a kind is one entry here and one there (the contract's entry and the
 * draft's defaults in drafts.ts are checked to exist by the compiler).
 */
import type { QuestionKind } from '@examhall/contract';
import { lazy, type ComponentType } from 'react';
import type { Language } from '../i18n/format.js';
import { PickRenderer } from './render/SubInput.js';
import { ListeningAnswer, ReadingAnswer } from './render/SubsAnswer.js';
import type { RendererProps } from './render/types.js';

/**
 * An answer area built with Ant Design, loaded with antd's theme and language around it: the exam page, built with
 * the kit in ui/, has no antd context of its own.
 */
async function withAntd(
  load: Promise<ComponentType<RendererProps>>,
): Promise<{ default: ComponentType<RendererProps> }> {
  const [Area, { AntdProviders }] = await Promise.all([load, import('../shell/AntdScope.js')]);
  return {
    default: (props: RendererProps) => (
      <AntdProviders inline>
        <Area {...props} />
      </AntdProviders>
    ),
  };
}

/**
 * The answer areas with an editor (code, rich text) load with their editor, only when such a question shows: the
 * exam page's first load stays light (QuestionBody waits for them under a Suspense).
 */
const CodeAnswer = lazy(() => withAntd(import('./render/CodeAnswer.js').then((m) => m.CodeAnswer)));
const QaAnswer = lazy(() => withAntd(import('./render/QaAnswer.js').then((m) => m.QaAnswer)));

/** What the web app knows about one kind. */
export interface WebQuestionEntry {
  /** Its name in each language. */
  label: Readonly<Record<Language, string>>;
  /** The answer area candidates see under the stem. */
  Renderer: ComponentType<RendererProps>;
}

/** Every kind's label and renderer. */
export const WEB_QUESTION_REGISTRY: { readonly [K in QuestionKind]: WebQuestionEntry } = {
  single: {
    label: { 'zh-CN': '单选题', 'en-US': 'Single choice' },
    Renderer: PickRenderer,
  },
  multiple: {
    label: { 'zh-CN': '多选题', 'en-US': 'Multiple choice' },
    Renderer: PickRenderer,
  },
  indefinite: {
    label: { 'zh-CN': '不定项选择题', 'en-US': 'Indefinite choice' },
    Renderer: PickRenderer,
  },
  fill_blank: {
    label: { 'zh-CN': '填空题', 'en-US': 'Fill in the blanks' },
    Renderer: PickRenderer,
  },
  qa: {
    label: { 'zh-CN': '问答题', 'en-US': 'Q&A' },
    Renderer: QaAnswer,
  },
  programming: {
    label: { 'zh-CN': '编程题', 'en-US': 'Programming' },
    Renderer: CodeAnswer,
  },
  true_false: {
    label: { 'zh-CN': '判断题', 'en-US': 'True/false' },
    Renderer: PickRenderer,
  },
  programming_qa: {
    label: { 'zh-CN': '编程问答题', 'en-US': 'Programming Q&A' },
    Renderer: CodeAnswer,
  },
  reading: {
    label: { 'zh-CN': '阅读理解', 'en-US': 'Reading' },
    Renderer: ReadingAnswer,
  },
  listening: {
    label: { 'zh-CN': '听力题', 'en-US': 'Listening' },
    Renderer: ListeningAnswer,
  },
  gradient: {
    label: { 'zh-CN': '梯度选择题', 'en-US': 'Gradient choice' },
    Renderer: PickRenderer,
  },
  evaluation: {
    label: { 'zh-CN': '测评题', 'en-US': 'Evaluation item' },
    Renderer: PickRenderer,
  },
};

/** A kind's name in a language. */
export function kindLabel(kind: QuestionKind, lang: Language): string {
  return WEB_QUESTION_REGISTRY[kind].label[lang];
}
