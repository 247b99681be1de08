import { sectionFullMarks, type ExamDefinition, type ExamSectionDef } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import {
  addItems,
  checkState,
  countUnder,
  draftProblems,
  drawSummary,
  examTotals,
  liveChangeBody,
  moveItem,
  newSection,
  parsePhones,
  passingOfKind,
  poolQueries,
  POOL_QUERIES_MAX,
  problemAt,
  withCheckState,
} from './draft.js';

const FIXED: ExamSectionDef = {
  kind: 'major',
  title: 'Java',
  items: [
    { question_id: 1, points: 5 },
    { question_id: 2, points: 2.5 },
  ],
};
const DRAW: ExamSectionDef = {
  kind: 'major',
  title: 'Pool',
  draw: { count: 5, points: 4, folder_ids: [3], tags: ['java'], difficulty: [4, 2] },
};

function draft(patch: Partial<ExamDefinition> = {}): unknown {
  return {
    name: 'Backend',
    mode: 1,
    time_minutes: 60,
    start_at: 1_000,
    end_at: 2_000,
    settings: { capture_interval: 30 },
    sections: [FIXED, DRAW],
    ...patch,
  };
}

describe('the exam draft', () => {
  it('has no problems when the schema accepts it, and names each field that fails', () => {
    expect(draftProblems(draft()).size).toBe(0);
    const problems = draftProblems(draft({ name: '', time_minutes: 0, end_at: 500 }));
    expect(problems.get('name')).toBe('the exam needs a name');
    expect(problems.has('time_minutes')).toBe(true);
    expect(problems.get('end_at')).toBe('closes before it opens');
  });

  it('finds problems inside a section and counts them for a tab', () => {
    const bad = draft({
      sections: [
        FIXED,
        { ...FIXED, items: [{ question_id: 1, points: 1 }] },
        { ...DRAW, draw: { ...DRAW.draw, count: 0 } },
      ],
    } as Partial<ExamDefinition>);
    const problems = draftProblems(bad);
    expect(problemAt(problems, 'sections.1.items.0.question_id')).toBe('question 1 is in the exam twice');
    expect(problemAt(problems, 'sections.2', true)).toMatch(/^draw\.count: /);
    expect(problemAt(problems, 'sections.0', true)).toBeUndefined();
    expect(countUnder(problems, ['sections'])).toBe(2);
    expect(countUnder(problems, ['name', 'time_minutes'])).toBe(0);
  });

  it('adds up points and questions per candidate: a draw by its count, not its pool; evaluation items for no points', () => {
    expect(sectionFullMarks(FIXED)).toBe(7.5);
    expect(sectionFullMarks(DRAW)).toBe(20);
    expect(examTotals([FIXED, DRAW])).toEqual({ questions: 7, points: 27.5 });
    // The evaluation items are questions a candidate gets, but scoring adds no points of theirs (the 86 against 76).
    const evaluation: ExamSectionDef = { ...FIXED, kind: 'evaluation' };
    expect(examTotals([FIXED, DRAW, evaluation])).toEqual({ questions: 9, points: 27.5 });
    expect(examTotals([])).toEqual({ questions: 0, points: 0 });
  });

  it('makes new sections of either shape', () => {
    expect(newSection('linetest', 'fixed')).toEqual({ kind: 'linetest', title: '', items: [] });
    expect(newSection('major', 'draw', 3)).toEqual({
      kind: 'major',
      title: '',
      draw: { count: 5, points: 3, folder_ids: [], tags: [], difficulty: [] },
    });
  });

  it('adds picked questions at their default points, never one already in the exam', () => {
    const sections: ExamSectionDef[] = [FIXED, { kind: 'linetest', title: '', items: [] }];
    const { sections: next, skipped } = addItems(sections, 1, [
      { id: 2, default_score: 3 },
      { id: 9, default_score: 0 },
      { id: 10, default_score: 6 },
      { id: 10, default_score: 6 },
    ]);
    expect(skipped).toEqual([2, 10]);
    expect(next[1]).toEqual({
      kind: 'linetest',
      title: '',
      items: [
        { question_id: 9, points: 1 },
        { question_id: 10, points: 6 },
      ],
    });
    expect(next[0]).toBe(FIXED);
  });

  it('moves items within a list', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, -5)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a'], 3, 0)).toEqual(['a']);
  });
});

describe('draw rules', () => {
  it('are summarised with folder names, sorted difficulties and their total', () => {
    const rule = { count: 5, points: 4, folder_ids: [3, 8], tags: ['java'], difficulty: [4, 2] };
    expect(drawSummary(rule, (id) => (id === 3 ? 'Backend' : undefined))).toEqual({
      count: 5,
      points: 4,
      total: 20,
      folders: ['Backend', '#8'],
      tags: ['java'],
      difficulty: [2, 4],
    });
  });

  it('become one list query per combination of folder, tag and difficulty', () => {
    expect(poolQueries({ folder_ids: [], tags: [], difficulty: [] })).toEqual([{}]);
    expect(poolQueries({ folder_ids: [3], tags: ['a', 'b'], difficulty: [] })).toEqual([
      { folder_id: 3, tag: 'a' },
      { folder_id: 3, tag: 'b' },
    ]);
    expect(poolQueries({ folder_ids: [1, 1], tags: [], difficulty: [5] })).toEqual([{ folder_id: 1, difficulty: 5 }]);
    const many = Array.from({ length: POOL_QUERIES_MAX + 1 }, (_, i) => i + 1);
    expect(poolQueries({ folder_ids: many, tags: [], difficulty: [] })).toBeNull();
  });
});

describe('passing rules, live changes and invitations', () => {
  it('switch the passing rule with a sensible mark', () => {
    expect(passingOfKind('none', 100)).toEqual({ kind: 'none' });
    expect(passingOfKind('points', 55)).toEqual({ kind: 'points', min_points: 33 });
    expect(passingOfKind('percent', 55)).toEqual({ kind: 'percent', min_percent: 60 });
  });

  it('send only what changes while an exam runs', () => {
    const live = { end_at: 5_000, time_minutes: 60 };
    expect(liveChangeBody(7, live, { end_at: 5_000, time_minutes: 60 })).toBeNull();
    expect(liveChangeBody(7, live, { end_at: 9_000, time_minutes: 60 })).toEqual({ exam_id: 7, end_at: 9_000 });
    expect(liveChangeBody(7, live, { time_minutes: 90 })).toEqual({ exam_id: 7, time_minutes: 90 });
  });

  it('read phones one per line or separated by commas, with an optional calling code', () => {
    expect(parsePhones('13800138000\n+852 61234567, 139-0013-9000；\n', '86')).toEqual([
      { area_code: '86', phone: '13800138000' },
      { area_code: '852', phone: '61234567' },
      { area_code: '86', phone: '13900139000' },
    ]);
    expect(parsePhones('  ', '86')).toEqual([]);
  });
});

describe('device checks', () => {
  const camera = { skip: 'is_skip_camera', close: 'is_close_camera' };
  it('read as required, skippable or removed from their two flags', () => {
    expect(checkState({ is_skip_camera: 0, is_close_camera: 0 }, camera)).toBe('required');
    expect(checkState({ is_skip_camera: 1, is_close_camera: 0 }, camera)).toBe('skippable');
    expect(checkState({ is_skip_camera: 1, is_close_camera: 1 }, camera)).toBe('off');
  });

  it('set both flags for a state and leave the other settings alone', () => {
    const settings = { is_skip_camera: 0, is_close_camera: 0, is_paste: 1 };
    expect(withCheckState(settings, camera, 'off')).toEqual({ is_skip_camera: 0, is_close_camera: 1, is_paste: 1 });
    expect(withCheckState(settings, camera, 'skippable')).toEqual({
      is_skip_camera: 1,
      is_close_camera: 0,
      is_paste: 1,
    });
    expect(withCheckState({ ...settings, is_close_camera: 1 }, camera, 'required')).toEqual(settings);
  });
});
