/**
 * The web app's question kinds: for each kind of the contract's QUESTION_REGISTRY, its label and the renderer
 * the exam page shows candidates. The bank's editor of each kind is in edit/editors.ts, so the exam page never
 * loads the console's editors. Adding a kind is one entry here and one there (the contract's entry and the
 * draft's defaults in drafts.ts are checked to exist by the compiler).
 */
import type { QuestionKind } from '@examhall/contract';
import { lazy, type ComponentType } from 'react';
import { translate, type Language } from '../i18n/format.js';
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
  /** The answer area candidates see under the stem. */
  Renderer: ComponentType<RendererProps>;
}

/** Every kind's label and renderer. */
export const WEB_QUESTION_REGISTRY: { readonly [K in QuestionKind]: WebQuestionEntry } = {
  single: {
    Renderer: PickRenderer,
  },
  multiple: {
    Renderer: PickRenderer,
  },
  indefinite: {
    Renderer: PickRenderer,
  },
  fill_blank: {
    Renderer: PickRenderer,
  },
  qa: {
    Renderer: QaAnswer,
  },
  programming: {
    Renderer: CodeAnswer,
  },
  true_false: {
    Renderer: PickRenderer,
  },
  programming_qa: {
    Renderer: CodeAnswer,
  },
  reading: {
    Renderer: ReadingAnswer,
  },
  listening: {
    Renderer: ListeningAnswer,
  },
  gradient: {
    Renderer: PickRenderer,
  },
  evaluation: {
    Renderer: PickRenderer,
  },
};

/** A kind's name in a language: the text of `kind.<kind>` (one key per kind, in the base texts). */
export function kindLabel(kind: QuestionKind, lang: Language): string {
  return translate(lang, `kind.${kind}`);
}
