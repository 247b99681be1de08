/**
 * The exam editor's logic apart from the page: the draft's problems by field (from the contract's schema,
 * so the editor refuses what the server would), sections and their points, draw rules, live changes.
 * Framework-free so it is tested on its own.
 */
import {
  examFullMarks,
  ExamDefinition,
  isDrawSection,
  sectionQuestionCount,
  type DrawRule,
  type ExamSectionDef,
  type LiveChangeBody,
  type PassingRule,
  type Section,
} from '@examhall/contract';

/** Problems of a draft by field path (`time_minutes`, `sections.1.draw.count`), the first one of each. */
export type Problems = ReadonlyMap<string, string>;

/** The draft's problems as the server's schema finds them; empty when it may be saved. */
export function draftProblems(draft: unknown): Problems {
  const parsed = ExamDefinition.safeParse(draft);
  const out = new Map<string, string>();
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    if (!out.has(path)) out.set(path, issue.message);
  }
  return out;
}

/** The problem at a path, or under it when `deep` (e.g. a whole section). */
export function problemAt(problems: Problems, path: string, deep = false): string | undefined {
  const exact = problems.get(path);
  if (exact !== undefined || !deep) return exact;
  for (const [p, message] of problems) if (p.startsWith(`${path}.`)) return `${p.slice(path.length + 1)}: ${message}`;
  return undefined;
}

/** How many problems lie under any of the paths (for a tab's badge). */
export function countUnder(problems: Problems, prefixes: readonly string[]): number {
  let n = 0;
  for (const p of problems.keys()) if (prefixes.some((pre) => p === pre || p.startsWith(`${pre}.`))) n += 1;
  return n;
}

/** A 0/1 flag of the settings from a switch. */
export const flag = (on: boolean): 0 | 1 => (on ? 1 : 0);

/** A new, empty section of a kind: a fixed list, or a draw of 5 questions. */
export function newSection(kind: Section, mode: 'fixed' | 'draw', points = 5): ExamSectionDef {
  if (mode === 'fixed') return { kind, title: '', items: [] };
  return { kind, title: '', draw: { count: 5, points, folder_ids: [], tags: [], difficulty: [] } };
}

/** What the exam gives each candidate: how many questions, for how many points in all (its full marks). */
export function examTotals(sections: readonly ExamSectionDef[]): { questions: number; points: number } {
  return {
    questions: sections.reduce((n, s) => n + sectionQuestionCount(s), 0),
    points: examFullMarks(sections),
  };
}

/** Bank questions of every fixed section (a question may be in an exam once). */
export function fixedQuestionIds(sections: readonly ExamSectionDef[]): Set<number> {
  const ids = new Set<number>();
  for (const s of sections) if (!isDrawSection(s)) for (const i of s.items) ids.add(i.question_id);
  return ids;
}

/**
 * Adds bank questions to a fixed section at their default points, skipping any already in the exam;
 * answers the section and the ids skipped.
 */
export function addItems(
  sections: readonly ExamSectionDef[],
  index: number,
  picked: readonly { id: number; default_score: number }[],
): { sections: ExamSectionDef[]; skipped: number[] } {
  const taken = fixedQuestionIds(sections);
  const skipped: number[] = [];
  const next = sections.map((s, i) => {
    if (i !== index || isDrawSection(s)) return s;
    const items = [...s.items];
    for (const q of picked) {
      if (taken.has(q.id)) skipped.push(q.id);
      else {
        taken.add(q.id);
        items.push({ question_id: q.id, points: q.default_score > 0 ? q.default_score : 1 });
      }
    }
    return { ...s, items };
  });
  return { sections: next, skipped };
}

/** A copy of `list` with the item at `from` moved to `to` (both clamped). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length) return out;
  const target = Math.max(0, Math.min(out.length - 1, to));
  const [item] = out.splice(from, 1);
  out.splice(target, 0, item!);
  return out;
}

/** A draw rule in words, as parts the page translates: how many, for how much, from where. */
export interface DrawSummary {
  count: number;
  points: number;
  total: number;
  folders: string[];
  tags: string[];
  difficulty: number[];
}

/** The parts of a draw rule's summary, with folder names looked up (an unknown folder shows its id). */
export function drawSummary(rule: DrawRule, folderName: (id: number) => string | undefined): DrawSummary {
  return {
    count: rule.count,
    points: rule.points,
    total: Math.round(rule.count * rule.points * 100) / 100,
    folders: rule.folder_ids.map((id) => folderName(id) ?? `#${id}`),
    tags: [...rule.tags],
    difficulty: [...rule.difficulty].sort((a, b) => a - b),
  };
}

/** One list query per combination of a draw rule's folders, tags and difficulties (each list an "any of"). */
export interface PoolQuery {
  folder_id?: number;
  tag?: string;
  difficulty?: number;
}

/** Most list queries counted for one rule; a rule with more combinations is not counted in the page. */
export const POOL_QUERIES_MAX = 24;

/**
 * The list queries whose union is a draw rule's pool (the bank's list filters take one folder, one tag and
 * one difficulty each; a rule's lists mean "any of"). Null when there are more than POOL_QUERIES_MAX.
 */
export function poolQueries(rule: Pick<DrawRule, 'folder_ids' | 'tags' | 'difficulty'>): PoolQuery[] | null {
  const folders: (number | undefined)[] = rule.folder_ids.length ? [...new Set(rule.folder_ids)] : [undefined];
  const tags: (string | undefined)[] = rule.tags.length ? [...new Set(rule.tags)] : [undefined];
  const levels: (number | undefined)[] = rule.difficulty.length ? [...new Set(rule.difficulty)] : [undefined];
  if (folders.length * tags.length * levels.length > POOL_QUERIES_MAX) return null;
  const out: PoolQuery[] = [];
  for (const folder_id of folders)
    for (const tag of tags)
      for (const difficulty of levels)
        out.push({
          ...(folder_id !== undefined ? { folder_id } : {}),
          ...(tag !== undefined ? { tag } : {}),
          ...(difficulty !== undefined ? { difficulty } : {}),
        });
  return out;
}

/** The passing rule with its kind changed, keeping a sensible mark. */
export function passingOfKind(kind: PassingRule['kind'], maxPoints: number): PassingRule {
  switch (kind) {
    case 'none':
      return { kind: 'none' };
    case 'points':
      return { kind: 'points', min_points: Math.round(maxPoints * 0.6 * 100) / 100 };
    case 'percent':
      return { kind: 'percent', min_percent: 60 };
  }
}

/** What the candidate side runs now, and the live change form's values. */
export interface LiveValues {
  end_at: number;
  time_minutes: number;
}

/** The live-change call for what differs from what runs now; null when nothing does. */
export function liveChangeBody(examId: number, live: LiveValues, wanted: Partial<LiveValues>): LiveChangeBody | null {
  const body: LiveChangeBody = { exam_id: examId };
  if (wanted.end_at !== undefined && wanted.end_at !== live.end_at) body.end_at = wanted.end_at;
  if (wanted.time_minutes !== undefined && wanted.time_minutes !== live.time_minutes)
    body.time_minutes = wanted.time_minutes;
  return body.end_at === undefined && body.time_minutes === undefined ? null : body;
}

/** Invitation lines as typed ("13800138000" or "+852 61234567", one per line or separated by commas). */
export function parsePhones(text: string, defaultArea: string): { phone: string; area_code: string }[] {
  return text
    .split(/[\r\n,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^\+(\d{1,4})[-\s]?(\d+)$/.exec(s);
      return m ? { area_code: m[1]!, phone: m[2]! } : { area_code: defaultArea, phone: s.replace(/[-\s]/g, '') };
    });
}

/** How a device check runs: required, skippable by the candidate, or removed. */
export type CheckState = 'required' | 'skippable' | 'off';

/** The skip and close flags of one check, as named in the settings. */
export interface CheckFlags {
  skip: string;
  close: string;
}

/** A check's state from its flags (removed wins over skippable). */
export function checkState(settings: Readonly<Record<string, unknown>>, flags: CheckFlags): CheckState {
  if (settings[flags.close] === 1) return 'off';
  if (settings[flags.skip] === 1) return 'skippable';
  return 'required';
}

/** The settings with a check's flags set for a state. */
export function withCheckState<S extends object>(settings: S, flags: CheckFlags, state: CheckState): S {
  return { ...settings, [flags.skip]: state === 'skippable' ? 1 : 0, [flags.close]: state === 'off' ? 1 : 0 };
}
