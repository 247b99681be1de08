/** Loading one question of the exam page, kept in this browser so moving on works without a network. */
import {
  shapeOf,
  type AnswerShape,
  type Section,
  type ShowNewData,
  subjectCalls,
  cepingCalls,
} from '@examhall/contract';
import { request, requestWithMessage } from '../api/client.js';
import { parseStored } from './answers.js';
import type { CardItem } from './card.js';
import type { PageAnswer } from './useAnswers.js';
import { cached, isNetworkFailure } from './offlineCache.js';

/** Loaded question data of either kind. */
export type Loaded =
  | { kind: 'subject'; data: Awaited<ReturnType<typeof request<typeof subjectCalls.showNew>>> }
  | { kind: 'ceping'; data: Awaited<ReturnType<typeof request<typeof cepingCalls.cepingShowNew>>> };

/**
 * A load that is not used: a success envelope with a message means the question is not to be shown; the page
 * shows the message as a warning instead.
 */
export class SubjectWarning extends Error {}

/** The query key of a question of the exam page. */
export const questionQueryKey = (examId: number, item: Pick<CardItem, 'kind' | 'id'>) =>
  ['question', examId, item.kind, item.id] as const;

/** How long a section's answer waits for the loads of its questions. */
const SECTION_KEPT_MS = 30_000;

/**
 * Section loads by exam and section: each question it brought is handed to one load, within SECTION_KEPT_MS; a
 * load that failed keeps its error.
 */
const sections = new Map<string, Promise<Map<number, ShowNewData> | { failed: unknown }>>();

/**
 * A question out of its section's one call (the page loads every question up front: one call a section instead
 * of one a question); undefined when the section call was refused or did not bring it (a question that no longer
 * parses, or one loaded again later), so that it is loaded by itself. Without a network it throws at once, so the
 * copy kept in this browser is read without trying each question again.
 */
async function fromSection(examId: number, section: Section, id: number): Promise<ShowNewData | undefined> {
  if (section === 'evaluation') return undefined;
  const key = `${examId}:${section}`;
  let batch = sections.get(key);
  if (!batch) {
    batch = request(subjectCalls.showSection, { query: { exam_id: examId, section } }).then(
      (d) => new Map(d.list.map((q) => [q.subject.id, q])),
      (e: unknown) => ({ failed: e }),
    );
    sections.set(key, batch);
    setTimeout(() => sections.delete(key), SECTION_KEPT_MS);
  }
  const questions = await batch;
  if (!(questions instanceof Map)) {
    if (isNetworkFailure(questions.failed)) throw questions.failed;
    return undefined;
  }
  const found = questions.get(id);
  questions.delete(id);
  return found;
}

/** Loads a question, from the server or the copy kept in this browser. */
export async function loadQuestion(examId: number, item: Pick<CardItem, 'kind' | 'id' | 'section'>): Promise<Loaded> {
  if (item.kind === 'ceping') {
    const data = await cached(`ceping:${examId}:${item.id}`, () =>
      request(cepingCalls.cepingShowNew, { query: { exam_id: examId, subject_id: item.id } }),
    );
    return { kind: 'ceping', data };
  }
  const data = await cached(`subject:${examId}:${item.id}`, async () => {
    const batched = await fromSection(examId, item.section, item.id);
    if (batched) return batched;
    const res = await requestWithMessage(subjectCalls.showNew, { query: { subject_id: item.id, exam_id: examId } });
    if (res.msg) throw new SubjectWarning(res.msg);
    return res.data;
  });
  return { kind: 'subject', data };
}

/** What a loaded question asks to be filled in (evaluation items: one choice). */
export function loadedShape(loaded: Loaded | undefined): AnswerShape {
  return loaded?.kind === 'subject' ? shapeOf(loaded.data.subject) : null;
}

/** The answer the server holds for a loaded question. */
export function loadedAnswer(loaded: Loaded | undefined): PageAnswer | undefined {
  if (!loaded) return undefined;
  return loaded.kind === 'ceping' ? (loaded.data.answer ?? undefined) : parseStored(loaded.data.answer?.value);
}
