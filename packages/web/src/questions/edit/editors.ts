/**
 * The bank's editor of each question kind's content and key (the console's side of the web registry), from the
 * kinds' folders (kinds/<kind>/edit.ts).
 */
import type { QuestionKind } from '@examhall/contract';
import type { ComponentType } from 'react';
import type { KindEdit } from '../kinds/editEntry.js';
import { kindFolders, type FolderFiles, type KindFolders } from '../kinds/folders.js';
import type { BodyEditorProps } from './types.js';

/** The editor entries of the kinds' folders (each edit.ts's `edit`), by path. */
export const EDIT_FOLDERS = import.meta.glob<KindEdit>('../kinds/*/edit.ts', { eager: true, import: 'edit' });

/** Every kind's editor entry, from the folders' edit.ts files (a test passes one folder more). */
export function editKinds(files: FolderFiles<KindEdit>): KindFolders<KindEdit> {
  return kindFolders(files);
}

/** The product's kinds' editors. */
export const EDIT_KINDS = editKinds(EDIT_FOLDERS);

/** Every kind's editor: total because the kinds test checks that each contract kind has one (the one cast). */
export const QUESTION_EDITORS = Object.fromEntries(
  Object.entries(EDIT_KINDS.byKind).map(([kind, entry]) => [kind, entry?.Editor]),
) as unknown as { readonly [K in QuestionKind]: ComponentType<BodyEditorProps<K>> };
