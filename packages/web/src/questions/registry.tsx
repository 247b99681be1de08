/**
 * The web app's question kinds on the exam page: for each kind of the contract's QUESTION_REGISTRY, the renderer
 * candidates see, from the kind's folder (kinds/<kind>/render.ts). The bank's editor of each kind comes from the
 * folders' edit.ts (edit/editors.ts), so the exam page never loads the console's editors.
 */
import type { QuestionKind } from '@examhall/contract';
import { kindFolders, type FolderFiles, type KindFolders } from './kinds/folders.js';
import type { KindRender, WebQuestionEntry } from './kinds/renderEntry.js';

export type { WebQuestionEntry } from './kinds/renderEntry.js';

/** The renderer entries of the kinds' folders (each render.ts's `render`), by path. */
export const RENDER_FOLDERS = import.meta.glob<KindRender>('./kinds/*/render.ts', { eager: true, import: 'render' });

/** Every kind's renderer entry, from the folders' render.ts files (a test passes one folder more). */
export function renderKinds(files: FolderFiles<KindRender>): KindFolders<KindRender> {
  return kindFolders(files);
}

/** The product's kinds' renderers. */
export const RENDER_KINDS = renderKinds(RENDER_FOLDERS);

/** Every kind's renderer: total because the kinds test checks that each contract kind has one (the one cast). */
export const WEB_QUESTION_REGISTRY = RENDER_KINDS.byKind as unknown as {
  readonly [K in QuestionKind]: WebQuestionEntry;
};

export { kindLabel } from './labels.js';
