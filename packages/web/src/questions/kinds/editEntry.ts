/** What a kind's folder gives the bank's console (kinds/<kind>/edit.ts): never loaded by the exam page. */
import type { QuestionKind } from '@examhall/contract';
import type { ComponentType } from 'react';
import type { BodyEditorProps } from '../edit/types.js';

/** A kind's edit.ts exports `edit`: the editor of its content and key, under the kind's name. */
export interface KindEdit<K extends QuestionKind = QuestionKind> {
  kind: K;
  Editor: ComponentType<BodyEditorProps<K>>;
}
