/** How the exam list tells an exam's window apart from where the candidate stands with it. */
import type { ExamListItem } from '@examhall/contract';

/** The exam's window: not open yet, open now, or closed. */
export type WindowState = 'upcoming' | 'open' | 'ended';
/** The candidate's own state: not started, answering, handed in, or absent (the window closed first). */
export type OwnState = 'not_taken' | 'in_progress' | 'submitted' | 'absent';
/** What the list offers: enter, carry on, see the result, or nothing. */
export type ListAction = 'enter' | 'continue' | 'result' | null;

/** The window, the candidate's own state and the action of one exam in the list at `now` (server time). */
export function listView(
  exam: Pick<ExamListItem, 'start_at' | 'end_at' | 'state'>,
  now: number,
): { window: WindowState; own: OwnState; action: ListAction } {
  const window: WindowState = now < exam.start_at ? 'upcoming' : now >= exam.end_at ? 'ended' : 'open';
  switch (exam.state) {
    case 'submitted':
      return { window, own: 'submitted', action: 'result' };
    case 'in_progress':
      return { window, own: 'in_progress', action: 'continue' };
    case 'closed':
      return { window: 'ended', own: 'absent', action: null };
    case 'not_started':
      return { window: 'upcoming', own: 'not_taken', action: null };
    case 'open':
      return { window: 'open', own: 'not_taken', action: 'enter' };
  }
}
