/** Drafts to rows of the one-row-per-question layout (what the xlsx and CSV exporters write). */
import { OPTION_IDS, QUESTION_REGISTRY, type QuestionKind, type QuestionOf } from '@examhall/contract';
import { BLANK } from '../../richText.js';
import type { Draft, Problem } from '../../types.js';
import { noSuchType, notExported, writeKind, type KindWriters } from '../kinds.js';
import {
  BLANK_SEPARATOR,
  DIFFICULTY_VALUES,
  FIELD_NAMES,
  FOLDER_SEPARATOR,
  LIST_SEPARATOR,
  typeName,
  VARIANT_SEPARATOR,
  type Field,
} from './columns.js';
import { htmlToCell } from './read.js';

/** Excel keeps at most this many characters in a cell. */
const CELL_MAX = 32_767;

type Column = { field: Exclude<Field, 'option'> } | { field: 'option'; letter: string };

/** The columns we write, in order. */
export const COLUMNS: Column[] = [
  { field: 'type' },
  { field: 'title' },
  { field: 'stem' },
  ...OPTION_IDS.map((letter) => ({ field: 'option' as const, letter })),
  { field: 'answer' },
  { field: 'explanation' },
  { field: 'feedback' },
  { field: 'points' },
  { field: 'difficulty' },
  { field: 'knowledge' },
  { field: 'tags' },
  { field: 'folder' },
  { field: 'dimension' },
  { field: 'languages' },
];

const ENGLISH_HEADER: Record<Exclude<Field, 'option'>, string> = {
  number: 'No',
  type: 'Type',
  title: 'Title',
  stem: 'Stem',
  correct: 'Correct',
  option_points: 'Option points',
  answer: 'Answer',
  explanation: 'Explanation',
  feedback: 'Option feedback',
  points: 'Points',
  difficulty: 'Difficulty',
  knowledge: 'Knowledge points',
  tags: 'Tags',
  folder: 'Folder',
  dimension: 'Dimension',
  languages: 'Languages',
};

/** The header row in Chinese (选项A…) or English (Option A…); the reader takes both. */
export function headerRow(lang: 'zh' | 'en' = 'zh'): string[] {
  return COLUMNS.map((c) =>
    c.field === 'option'
      ? lang === 'zh'
        ? `选项${c.letter}`
        : `Option ${c.letter}`
      : lang === 'zh'
        ? FIELD_NAMES[c.field].zh
        : ENGLISH_HEADER[c.field],
  );
}

/** Cells by field (an option's as `optionA`...). */
type Cells = Partial<Record<string, string>>;

/** Gradient and evaluation items: each option's points, as `A=5;B=3`. */
const optionPoints = (q: QuestionOf<'gradient' | 'evaluation'>): Cells => ({
  answer: q.content.options.map((o) => `${o.id}=${q.key.scores[o.id]}`).join(BLANK_SEPARATOR),
});

/** A kind's own cells (its answer, and its dimension or languages) for each kind a row carries. */
const ROW_KINDS: KindWriters<Cells> = {
  single: (q) => ({ answer: q.key.option }),
  true_false: (q) => ({ answer: q.key.option }),
  multiple: (q) => ({ answer: q.key.options.join('') }),
  indefinite: (q) => ({ answer: q.key.options.join('') }),
  gradient: optionPoints,
  evaluation: (q) => ({ ...optionPoints(q), dimension: q.content.dimension }),
  fill_blank: (q) => {
    const bad = q.key.blanks.flat().find((v) => /[;；|｜]/.test(v) || v !== v.trim());
    if (bad !== undefined)
      return { why: `the accepted answer "${bad}" holds a separator (; or |) or spaces at its ends` };
    // The reader counts the blanks marked in the stem (three or more underscores) against the answer's.
    const marked = q.content.stem.replace(/_{3,}/g, BLANK).split(BLANK).length - 1;
    if (marked !== q.content.blanks)
      return { why: `the stem marks ${marked} blank(s) with ${BLANK} but the question has ${q.content.blanks}` };
    return { answer: q.key.blanks.map((b) => b.join(VARIANT_SEPARATOR)).join(BLANK_SEPARATOR) };
  },
  qa: (q) => (q.key.rubric ? { answer: htmlToCell(q.key.rubric, true) } : {}),
  programming_qa: (q) => {
    if (q.content.starter && Object.keys(q.content.starter).length > 0)
      return { why: 'starter code does not fit in a sheet' };
    return {
      languages: q.content.languages.join(LIST_SEPARATOR),
      ...(q.key.rubric ? { answer: htmlToCell(q.key.rubric, true) } : {}),
    };
  },
};

/** Why a row cannot carry a kind ROW_KINDS leaves out: the kinds with a reason of their own, then the rest. */
const NOT_IN_ROWS: Partial<Record<QuestionKind, string>> = {
  programming: 'export programming problems as FPS or as a problem zip',
};

/** Why a row cannot carry a kind: its own reason, sub-questions (the kinds answered per sub), or no such type. */
function notInRows(kind: string, format: string): string {
  if (Object.hasOwn(NOT_IN_ROWS, kind)) return NOT_IN_ROWS[kind as QuestionKind]!;
  if (Object.hasOwn(QUESTION_REGISTRY, kind) && QUESTION_REGISTRY[kind as QuestionKind].answer === 'subs')
    return 'sub-questions do not fit in one row';
  return noSuchType(format);
}

/** Why a draft cannot be a row, or its cells by field. */
function cellsOf(d: Draft, format: string): { cells: Cells } | { why: string } {
  const q = d.question;
  const own = writeKind(ROW_KINDS, d, notInRows(q.kind, format));
  if ('why' in own && typeof own.why === 'string') return { why: own.why };
  const out: Cells = { type: typeName(q.kind), stem: htmlToCell(q.content.stem, true), ...own };
  if ('options' in q.content && q.kind !== 'programming_qa')
    for (const o of q.content.options) out[`option${o.id}`] = htmlToCell(o.content, false);
  if (d.title !== undefined) out.title = d.title;
  if (d.explanation !== undefined) out.explanation = htmlToCell(d.explanation, true);
  const feedback = Object.entries(d.feedback ?? {}).map(([id, html]) => `${id}: ${htmlToCell(html, false)}`);
  if (feedback.length) out.feedback = feedback.join('\n');
  if (d.points !== undefined) out.points = String(d.points);
  if (d.difficulty !== undefined) out.difficulty = DIFFICULTY_VALUES[d.difficulty - 1];
  if (d.knowledge_points.length) out.knowledge = d.knowledge_points.join(LIST_SEPARATOR);
  if (d.tags.length) out.tags = d.tags.join(LIST_SEPARATOR);
  if (d.folder.length) out.folder = d.folder.join(FOLDER_SEPARATOR);
  const long = Object.values(out).find((v) => v !== undefined && v.length > CELL_MAX);
  if (long !== undefined) return { why: `a cell would hold ${long.length} characters (Excel keeps ${CELL_MAX})` };
  return { cells: out };
}

/** Drafts as rows under headerRow(); a draft a row cannot carry is left out with a `not_exported` warning. */
export function questionRows(drafts: Draft[], format: string): { rows: string[][]; problems: Problem[] } {
  const rows: string[][] = [];
  const problems: Problem[] = [];
  drafts.forEach((d, i) => {
    const made = cellsOf(d, format);
    if ('why' in made) {
      problems.push(notExported(i, d.question.kind, format, made.why));
      return;
    }
    const { cells } = made;
    rows.push(COLUMNS.map((c) => (c.field === 'option' ? cells[`option${c.letter}`] : cells[c.field]) ?? ''));
  });
  return { rows, problems };
}
