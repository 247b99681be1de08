/** A question kind's name in the page's language: the contract's kind entry says it, once, in both languages. */
import { KINDS, type KindIndex, type QuestionKind, type Section } from '@examhall/contract';
import type { Language } from '../i18n/format.js';

/** A kind's name in a language, from its entry in the contract's kinds given (a test passes its own). */
export function kindLabelIn(index: Pick<KindIndex, 'byKind'>, kind: string, lang: Language): string {
  const spec = index.byKind.get(kind);
  if (!spec) throw new Error(`no contract kind is named ${kind}`);
  return spec.label[lang];
}

/** A kind's name in a language. */
export function kindLabel(kind: QuestionKind, lang: Language): string {
  return kindLabelIn(KINDS, kind, lang);
}

/** A question type id's name in a language (what candidates see above a question), or the id for an unknown one. */
export function typeLabel(type: number, lang: Language): string {
  const kind = KINDS.kindOfType(type);
  return kind ? kindLabel(kind, lang) : String(type);
}

/**
 * The name of a stored question in a language, from its type and section: a type two kinds share (gradient choice
 * and evaluation items) is named by the kind its section holds; an unknown one by its id.
 */
export function storedTypeLabel(type: number, section: Section, lang: Language): string {
  const kind = KINDS.kindOfStored(type, section);
  return kind ? kindLabel(kind, lang) : typeLabel(type, lang);
}
