/** What a kind's folder gives the exam page (kinds/<kind>/render.ts): nothing of the console's editors. */
import type { ComponentType } from 'react';
import type { RendererProps } from '../render/types.js';

/** What the web app shows candidates of one kind. */
export interface WebQuestionEntry {
  /** The answer area candidates see under the stem. */
  Renderer: ComponentType<RendererProps>;
}

/** A kind's render.ts exports `render`: its renderer entry, under the kind's name. */
export interface KindRender<K extends string = string> extends WebQuestionEntry {
  kind: K;
}
