/** What every kind's body editor gets. */
import type { BankVerification, QuestionKind } from '@examhall/contract';
import type { ComponentType } from 'react';
import type { BodyDrafts } from '../drafts.js';
import type { Problem } from '../problems.js';

/** What the editors need from the page around them. */
export interface EditorContext {
  /** The stored question's id (verification of a reference solution needs one); absent for a new question. */
  questionId?: number;
  /** The stored question's last reference-solution check. */
  verification?: BankVerification | null;
  /** True while the draft differs from the stored question (a check judges the stored one). */
  unsaved: boolean;
  /** Stores a picture and answers its address (failures already said to the author). */
  uploadImage: (file: File) => Promise<string>;
  /** Puts a new reference-solution check where the page keeps it. */
  onVerified?: (verification: BankVerification) => void;
  /**
   * The editor of a kind's body (from the kinds' folders, edit/editors.ts): sub-questions are edited with their
   * kind's own. Given by the page, because the editors of the kinds with sub-questions are among them.
   */
  editorOf<K extends QuestionKind>(kind: K): ComponentType<BodyEditorProps<K>>;
}

/** Props of a kind's body editor: its content and key, and the problems found in them (paths from the body). */
export interface BodyEditorProps<K extends QuestionKind> {
  value: BodyDrafts[K];
  onChange: (next: BodyDrafts[K]) => void;
  /** The problems to show now, paths relative to this body (content..., key...). */
  problems: readonly Problem[];
  ctx: EditorContext;
  /** Prefix of element ids and test ids, unique per editor on the page (sub-questions nest). */
  idPrefix: string;
}
