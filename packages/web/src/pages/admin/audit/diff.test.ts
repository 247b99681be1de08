import { describe, expect, it } from 'vitest';
import { countChanges, diffEntries, flatten, showValue, VALUE_MAX_CHARS } from './diff.js';

describe('the audit diff', () => {
  it('marks each leaf field as changed, same, added or removed, in the order of after then before', () => {
    const rows = diffEntries(
      { name: 'Java', time: 60, settings: { is_paste: 1, is_copy_question: 0 }, old: 'x' },
      { name: 'Java 2', time: 60, settings: { is_paste: 0, is_copy_question: 0 }, fresh: true },
    );
    expect(rows).toEqual([
      { path: 'name', before: 'Java', after: 'Java 2', change: 'changed' },
      { path: 'time', before: '60', after: '60', change: 'same' },
      { path: 'settings.is_paste', before: '1', after: '0', change: 'changed' },
      { path: 'settings.is_copy_question', before: '0', after: '0', change: 'same' },
      { path: 'fresh', before: null, after: 'true', change: 'added' },
      { path: 'old', before: 'x', after: null, change: 'removed' },
    ]);
    expect(countChanges(rows)).toBe(4);
  });

  it('shows a create (no before) as every field added and a delete (no after) as every field removed', () => {
    expect(diffEntries(null, { id: 3, tags: ['a', 'b'] })).toEqual([
      { path: 'id', before: null, after: '3', change: 'added' },
      { path: 'tags', before: null, after: '[a, b]', change: 'added' },
    ]);
    expect(diffEntries({ id: 3 }, null)).toEqual([{ path: 'id', before: '3', after: null, change: 'removed' }]);
    expect(diffEntries(null, null)).toEqual([]);
  });

  it('keeps arrays of scalars as one value and walks arrays of objects by index', () => {
    const rows = diffEntries(
      { tags: ['a'], sections: [{ title: 'A', items: [{ question_id: 1, points: 5 }] }] },
      { tags: ['a', 'b'], sections: [{ title: 'A', items: [{ question_id: 1, points: 10 }] }, { title: 'B' }] },
    );
    expect(rows.filter((r) => r.change !== 'same')).toEqual([
      { path: 'tags', before: '[a]', after: '[a, b]', change: 'changed' },
      { path: 'sections[0].items[0].points', before: '5', after: '10', change: 'changed' },
      { path: 'sections[1].title', before: null, after: 'B', change: 'added' },
    ]);
  });

  it('ignores key order and compares nested values deeply', () => {
    const rows = diffEntries({ a: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 } });
    expect(countChanges(rows)).toBe(0);
  });

  it('shows empty objects and nulls as values and cuts long text', () => {
    expect(flatten({ logo: {}, end: null })).toEqual(
      new Map<string, unknown>([
        ['logo', {}],
        ['end', null],
      ]),
    );
    expect(showValue(null)).toBe('∅');
    expect(showValue({})).toBe('{}');
    const long = 'x'.repeat(VALUE_MAX_CHARS + 10);
    expect(showValue(long)).toBe(`${'x'.repeat(VALUE_MAX_CHARS)}…`);
  });

  it('shows a scalar before/after as one value', () => {
    expect(diffEntries('draft', 'published')).toEqual([
      { path: '(value)', before: 'draft', after: 'published', change: 'changed' },
    ]);
  });

  it("shows a time field's epoch ms as a time on the server's clock, and other numbers as they are", () => {
    const at = Date.UTC(2026, 10, 29, 6, 30);
    expect(diffEntries(null, { created_at: at, mark: { marked_at: at, points: at } })).toEqual([
      { path: 'created_at', before: null, after: '2026-11-29 14:30', change: 'added' },
      { path: 'mark.marked_at', before: null, after: '2026-11-29 14:30', change: 'added' },
      { path: 'mark.points', before: null, after: String(at), change: 'added' },
    ]);
    expect(showValue(5, 'time_minutes')).toBe('5');
  });
});
