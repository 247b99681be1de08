/** The answer card: which questions the exam page shows, in what order and under which number, and their state. */
import {
  QUESTION_REGISTRY,
  type AnswerState,
  type CepingLineOrderData,
  type OrderListData,
  type Section,
} from '@examhall/contract';
import { questionKey } from './outbox.js';

/** One place on the answer card. */
export interface CardItem {
  kind: 'subject' | 'ceping';
  id: number;
  section: Section;
  type: number;
  /** The server's answered flag when the page loaded. */
  answeredOnServer: boolean;
}

/** The outbox key of an item's answer. */
export const keyOf = (item: Pick<CardItem, 'kind' | 'id'>) =>
  questionKey(item.kind === 'ceping' ? 'ceping' : 'answer', item.id);

/**
 * The card's items: the questions in the server's order (which runs through one section before the next), then
 * the evaluation items in theirs. A question's number is its place in this list, plus one.
 */
export function cardItems(
  order: OrderListData['subject_order'] | undefined,
  evaluation: CepingLineOrderData['data'] | undefined,
): CardItem[] {
  const list: CardItem[] = (order ?? [])
    .filter((e) => e.section !== 'evaluation')
    .map((e) => ({
      kind: 'subject',
      id: e.id,
      section: e.section,
      type: e.type,
      answeredOnServer: e.isAnswered === 1,
    }));
  for (const c of [...(evaluation ?? [])].sort((a, b) => a.order_num - b.order_num)) {
    list.push({
      kind: 'ceping',
      id: c.id,
      section: 'evaluation',
      type: QUESTION_REGISTRY.evaluation.type,
      answeredOnServer: c.isAnswered === 1,
    });
  }
  return list;
}

/** A run of consecutive items of one section, as the card and its tabs show them. */
export interface CardGroup {
  section: Section;
  /** Index of the group's first item in the whole list. */
  first: number;
  /** Indexes of its items in the whole list. */
  indexes: number[];
}

/** The card's sections in the order the items run through them. */
export function groupBySection(items: readonly CardItem[]): CardGroup[] {
  const groups: CardGroup[] = [];
  items.forEach((item, i) => {
    const last = groups.at(-1);
    if (last?.section === item.section) last.indexes.push(i);
    else groups.push({ section: item.section, first: i, indexes: [i] });
  });
  return groups;
}

/** Counts and lists of the card, as the header, the card and the submit dialog show them. */
export interface CardSummary {
  total: number;
  answered: number;
  /** Indexes of questions partly answered (a blank or a sub-question left). */
  partial: number[];
  /** Indexes of questions with nothing entered. */
  unanswered: number[];
  /** Indexes of questions marked for review. */
  marked: number[];
}

/** Summarises the card: answered counts a question answered in part too, as the result page does. */
export function summarize(
  items: readonly CardItem[],
  stateOf: (item: CardItem) => AnswerState,
  isMarked: (item: CardItem) => boolean,
): CardSummary {
  const summary: CardSummary = { total: items.length, answered: 0, partial: [], unanswered: [], marked: [] };
  items.forEach((item, i) => {
    const state = stateOf(item);
    if (state === 'unanswered') summary.unanswered.push(i);
    else summary.answered += 1;
    if (state === 'partial') summary.partial.push(i);
    if (isMarked(item)) summary.marked.push(i);
  });
  return summary;
}
