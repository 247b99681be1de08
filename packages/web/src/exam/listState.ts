/** How the exam list tells an exam's window apart from where the candidate stands with it. */
import { CHECK_IN_MINUTES, ExamMode, type ExamListItem } from '@examhall/contract';

/** The exam's window: not open yet, open now, or closed. */
export type WindowState = 'upcoming' | 'open' | 'ended';
/** The candidate's own state: not started, answering, handed in, or absent (the window closed first). */
export type OwnState = 'not_taken' | 'in_progress' | 'submitted' | 'absent';
/** What the list offers: check the devices before the opening, enter, carry on, see the result, or nothing. */
export type ListAction = 'checkIn' | 'enter' | 'continue' | 'result' | null;

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
      // The list was read before the window opened; once it has, the candidate may enter without a reload.
      if (now >= exam.start_at && now < exam.end_at) return { window: 'open', own: 'not_taken', action: 'enter' };
      // The device checks may be done before the opening (CHECK_IN_MINUTES), so that at it only start is left.
      return {
        window: now >= exam.end_at ? 'ended' : 'upcoming',
        own: 'not_taken',
        action: now < exam.start_at && now >= exam.start_at - CHECK_IN_MINUTES * 60_000 ? 'checkIn' : null,
      };
    case 'open':
      // Read while open; once the window has closed the candidate missed it, as the server says after a reload
      // (and the list's group moves it among the finished ones): never an "open" tag there.
      return now >= exam.end_at
        ? { window: 'ended', own: 'absent', action: null }
        : { window: 'open', own: 'not_taken', action: 'enter' };
  }
}

/**
 * The groups of the exam list: not open yet, open now (being taken, or a practice that may be taken again), finished
 * (handed in or closed).
 */
export type ListGroup = 'upcoming' | 'open' | 'finished';

/** The fields grouping reads: the candidate's own window and state, and the mode (a practice may be taken again). */
export type Groupable = Pick<ExamListItem, 'window_start' | 'window_end' | 'state' | 'mode'>;

/** Whether a handed-in practice may be taken again at `now`: its window is open (the server starts a new attempt). */
export function practiceAgain(exam: Groupable, now: number): boolean {
  return (
    exam.state === 'submitted' && exam.mode === ExamMode.simulate && now >= exam.window_start && now < exam.window_end
  );
}

/** Which group an exam is in at `now` (server time), by the candidate's own window. */
export function groupOf(exam: Groupable, now: number): ListGroup {
  switch (exam.state) {
    case 'submitted':
      return practiceAgain(exam, now) ? 'open' : 'finished';
    case 'closed':
      return 'finished';
    case 'in_progress':
      return 'open';
    case 'not_started':
    case 'open':
      if (now < exam.window_start) return 'upcoming';
      return now < exam.window_end ? 'open' : 'finished';
  }
}

/**
 * The exams in their groups: upcoming ones soonest first, open ones closing soonest first, finished ones
 * latest first.
 */
export function groupExams<T extends Groupable>(items: readonly T[], now: number): Record<ListGroup, T[]> {
  const groups: Record<ListGroup, T[]> = { upcoming: [], open: [], finished: [] };
  for (const item of items) groups[groupOf(item, now)].push(item);
  groups.upcoming.sort((a, b) => a.window_start - b.window_start);
  groups.open.sort((a, b) => a.window_end - b.window_end);
  groups.finished.sort((a, b) => b.window_end - a.window_end);
  return groups;
}

/** Milliseconds until the candidate's window opens, or null once it has. */
export function opensIn(exam: Pick<ExamListItem, 'window_start'>, now: number): number | null {
  return now < exam.window_start ? exam.window_start - now : null;
}

/** A countdown split into days, hours, minutes and seconds (seconds rounded up, so it never shows 0 early). */
export function countdownParts(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}
