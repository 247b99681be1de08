import { CHECK_IN_MINUTES, ExamMode } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { countdownParts, groupExams, groupOf, listView, opensIn, practiceAgain, type Groupable } from './listState.js';

const exam = { start_at: 1_000, end_at: 2_000 };

describe('the exam list', () => {
  it("tells the window apart from the candidate's own state, and offers the result once handed in", () => {
    // Within the check-in before the opening: the device checks may be done now.
    expect(listView({ ...exam, state: 'not_started' }, 500)).toEqual({
      window: 'upcoming',
      own: 'not_taken',
      action: 'checkIn',
    });
    expect(listView({ ...exam, state: 'open' }, 1_500)).toEqual({ window: 'open', own: 'not_taken', action: 'enter' });
    // Read while open, shown on after the window closed: missed, as the server says after a reload.
    expect(listView({ ...exam, state: 'open' }, 2_000)).toEqual({ window: 'ended', own: 'absent', action: null });
    expect(groupOf({ window_start: 1_000, window_end: 2_000, state: 'open', mode: ExamMode.exam }, 2_000)).toBe(
      'finished',
    );
    expect(listView({ ...exam, state: 'in_progress' }, 1_500)).toEqual({
      window: 'open',
      own: 'in_progress',
      action: 'continue',
    });
    // Extra time can carry an attempt past the window's close.
    expect(listView({ ...exam, state: 'in_progress' }, 2_500)).toEqual({
      window: 'ended',
      own: 'in_progress',
      action: 'continue',
    });
    expect(listView({ ...exam, state: 'submitted' }, 1_500)).toEqual({
      window: 'open',
      own: 'submitted',
      action: 'result',
    });
    expect(listView({ ...exam, state: 'submitted' }, 2_500)).toEqual({
      window: 'ended',
      own: 'submitted',
      action: 'result',
    });
    expect(listView({ ...exam, state: 'closed' }, 2_500)).toEqual({ window: 'ended', own: 'absent', action: null });
  });
});

describe('the check-in before the opening', () => {
  it('offers the device checks from CHECK_IN_MINUTES before the opening, and nothing earlier', () => {
    const opens = 10 * 3_600_000;
    const window = { start_at: opens, end_at: opens + 3_600_000, state: 'not_started' as const };
    const checkIn = opens - CHECK_IN_MINUTES * 60_000;
    expect(listView(window, checkIn - 1).action).toBeNull();
    expect(listView(window, checkIn)).toEqual({ window: 'upcoming', own: 'not_taken', action: 'checkIn' });
    expect(listView(window, opens).action).toBe('enter');
    expect(listView(window, opens + 3_600_000)).toEqual({ window: 'ended', own: 'not_taken', action: null });
  });
});

describe('grouping and the countdown', () => {
  const item = (state: Groupable['state'], window_start: number, window_end: number, id = 0) => ({
    id,
    state,
    window_start,
    window_end,
    mode: ExamMode.exam,
  });
  const practice = (state: Groupable['state'], window_start: number, window_end: number) => ({
    ...item(state, window_start, window_end),
    mode: ExamMode.simulate,
  });

  it('keeps a handed-in practice among the open exams while its window is, to be taken again', () => {
    expect(groupOf(practice('submitted', 1_000, 2_000), 1_500)).toBe('open');
    expect(practiceAgain(practice('submitted', 1_000, 2_000), 1_500)).toBe(true);
    // Once its window closed, finished like any other.
    expect(groupOf(practice('submitted', 1_000, 2_000), 2_000)).toBe('finished');
    expect(practiceAgain(practice('submitted', 1_000, 2_000), 2_000)).toBe(false);
    // Not yet handed in: nothing to take again; a formal exam handed in is finished.
    expect(practiceAgain(practice('in_progress', 1_000, 2_000), 1_500)).toBe(false);
    expect(practiceAgain(item('submitted', 1_000, 2_000), 1_500)).toBe(false);
    expect(groupOf(item('submitted', 1_000, 2_000), 1_500)).toBe('finished');
  });

  it('groups by the own window and state: upcoming, open (or being taken), finished', () => {
    expect(groupOf(item('not_started', 1_000, 2_000), 500)).toBe('upcoming');
    // Read before it opened, looked at after: open now.
    expect(groupOf(item('not_started', 1_000, 2_000), 1_000)).toBe('open');
    expect(groupOf(item('open', 1_000, 2_000), 1_999)).toBe('open');
    expect(groupOf(item('open', 1_000, 2_000), 2_000)).toBe('finished');
    // Extra time carries an attempt past the window's close: still open for the candidate.
    expect(groupOf(item('in_progress', 1_000, 2_000), 5_000)).toBe('open');
    expect(groupOf(item('submitted', 1_000, 2_000), 1_500)).toBe('finished');
    expect(groupOf(item('closed', 1_000, 2_000), 2_500)).toBe('finished');
  });

  it('orders upcoming by opening, open by closing, finished latest first', () => {
    const groups = groupExams(
      [
        item('not_started', 3_000, 9_000, 1),
        item('not_started', 2_000, 9_000, 2),
        item('open', 0, 8_000, 3),
        item('in_progress', 0, 4_000, 4),
        item('submitted', 0, 1_000, 5),
        item('closed', 0, 1_500, 6),
      ],
      1_800,
    );
    expect(groups.upcoming.map((e) => e.id)).toEqual([2, 1]);
    expect(groups.open.map((e) => e.id)).toEqual([4, 3]);
    expect(groups.finished.map((e) => e.id)).toEqual([6, 5]);
  });

  it('counts down to the opening and stops once it has opened', () => {
    expect(opensIn({ window_start: 10_000 }, 4_000)).toBe(6_000);
    expect(opensIn({ window_start: 10_000 }, 10_000)).toBeNull();
    expect(countdownParts(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
    // 0.2 s left still shows one second, never zero before the window opens.
    expect(countdownParts(200)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
  });

  it('offers entering once the window has opened after the list was read', () => {
    expect(listView({ start_at: 1_000, end_at: 2_000, state: 'not_started' }, 1_200)).toEqual({
      window: 'open',
      own: 'not_taken',
      action: 'enter',
    });
  });
});
