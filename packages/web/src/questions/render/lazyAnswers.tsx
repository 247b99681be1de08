/**
 * The answer areas with an editor (code, rich text): they load with their editor, only when such a question shows,
 * so the exam page's first load stays light (QuestionBody waits for them under a Suspense). The kinds answered in
 * code or rich text point their renderer here (kinds/<kind>/render.ts).
 */
import { lazy, type ComponentType } from 'react';
import type { RendererProps } from './types.js';

/**
 * An answer area built with Ant Design, loaded with antd's theme and language around it: the exam page, built with
 * the kit in ui/, has no antd context of its own.
 */
async function withAntd(
  load: Promise<ComponentType<RendererProps>>,
): Promise<{ default: ComponentType<RendererProps> }> {
  const [Area, { AntdProviders }] = await Promise.all([load, import('../../shell/AntdScope.js')]);
  return {
    default: (props: RendererProps) => (
      <AntdProviders inline>
        <Area {...props} />
      </AntdProviders>
    ),
  };
}

/** Source code in one of the question's languages, loaded on first use. */
export const LazyCodeAnswer = lazy(() => withAntd(import('./CodeAnswer.js').then((m) => m.CodeAnswer)));

/** A rich-text answer with attachments, loaded on first use. */
export const LazyQaAnswer = lazy(() => withAntd(import('./QaAnswer.js').then((m) => m.QaAnswer)));
