/**
 * Time spent per question, read from an attempt's answer events. The exam page records `enter` on the question
 * it opens, `leave` on the one it leaves with `goto` or `prevAndNext` on the next, and `submit` on the question
 * shown when the candidate submits. A visit runs from an arrival (enter, goto, prevAndNext) to the next leave or
 * submit of that question, or to the next arrival elsewhere (a lost leave), or to the end of the attempt. Event
 * times are the page's and are held within the attempt's start and finish; a question never visited spent 0.
 */
import { AnswerEvent } from '@examhall/contract';

/** One navigation event of an attempt. */
export interface NavigationEvent {
  question_id: number;
  event: number;
  changed_at: number;
}

const ARRIVALS: ReadonlySet<number> = new Set([AnswerEvent.enter, AnswerEvent.goto, AnswerEvent.prevAndNext]);
const DEPARTURES: ReadonlySet<number> = new Set([AnswerEvent.leave, AnswerEvent.submit]);

/** Milliseconds spent per question id, from one attempt's events in their order. */
export function timePerQuestion(
  events: readonly NavigationEvent[],
  startedAt: number | null,
  finishedAt: number | null,
): Map<number, number> {
  const spent = new Map<number, number>();
  if (events.length === 0) return spent;
  const start = startedAt ?? events[0]!.changed_at;
  const end = Math.max(start, finishedAt ?? events[events.length - 1]!.changed_at);
  const clamp = (t: number) => Math.min(end, Math.max(start, t));
  const add = (q: number, ms: number) => spent.set(q, (spent.get(q) ?? 0) + Math.max(0, ms));
  let open: { q: number; since: number } | null = null;
  for (const e of events) {
    const t = clamp(e.changed_at);
    if (ARRIVALS.has(e.event)) {
      if (open && open.q === e.question_id) continue;
      if (open) add(open.q, t - open.since);
      open = { q: e.question_id, since: t };
    } else if (DEPARTURES.has(e.event) && open && open.q === e.question_id) {
      add(open.q, t - open.since);
      open = null;
    }
  }
  if (open) add(open.q, end - open.since);
  return spent;
}
