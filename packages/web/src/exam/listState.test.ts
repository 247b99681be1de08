import { describe, expect, it } from 'vitest';
import { listView } from './listState.js';

const exam = { start_at: 1_000, end_at: 2_000 };

describe('the exam list', () => {
  it("tells the window apart from the candidate's own state, and offers the result once handed in", () => {
    expect(listView({ ...exam, state: 'not_started' }, 500)).toEqual({
      window: 'upcoming',
      own: 'not_taken',
      action: null,
    });
    expect(listView({ ...exam, state: 'open' }, 1_500)).toEqual({ window: 'open', own: 'not_taken', action: 'enter' });
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
