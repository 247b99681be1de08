/** Drafts to rows of the one-row-per-question layout (what the xlsx and CSV exporters write). */
import { OPTION_IDS } from '@examhall/contract';
import { problem } from '../../problems.js';
import type { Draft, Problem } from '../../types.js';
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

/** Why a draft cannot be a row, or its cells by field. */
function cellsOf(d: Draft): { cells: Partial<Record<string, string>> } | { why: string } {
  const q = d.question;
  const out: Partial<Record<string, string>> = { type: typeName(q.kind), stem: htmlToCell(q.content.stem, true) };
  switch (q.kind) {
    case 'programming':
      return { why: 'export programming problems as FPS or as a problem zip' };
    case 'reading':
    case 'listening':
      return { why: 'sub-questions do not fit in one row' };
    case 'single':
    case 'true_false':
      out.answer = q.key.option;
      break;
    case 'multiple':
    case 'indefinite':
      out.answer = q.key.options.join('');
      break;
    case 'gradient':
    case 'evaluation':
      out.answer = q.content.options.map((o) => `${o.id}=${q.key.scores[o.id]}`).join(BLANK_SEPARATOR);
      if (q.kind === 'evaluation') out.dimension = q.content.dimension;
      break;
    case 'fill_blank': {
      const bad = q.key.blanks.flat().find((v) => /[;；|｜]/.test(v) || v !== v.trim());
      if (bad !== undefined)
        return { why: `the accepted answer "${bad}" holds a separator (; or |) or spaces at its ends` };
      out.answer = q.key.blanks.map((b) => b.join(VARIANT_SEPARATOR)).join(BLANK_SEPARATOR);
      break;
    }
    case 'qa':
      if (q.key.rubric) out.answer = htmlToCell(q.key.rubric, true);
      break;
    case 'programming_qa':
      if (q.content.starter && Object.keys(q.content.starter).length > 0)
        return { why: 'starter code does not fit in a sheet' };
      out.languages = q.content.languages.join(LIST_SEPARATOR);
      if (q.key.rubric) out.answer = htmlToCell(q.key.rubric, true);
      break;
  }
  if ('options' in q.content && q.kind !== 'programming_qa')
    for (const o of q.content.options) out[`option${o.id}`] = htmlToCell(o.content, false);
  if (d.title !== undefined) out.title = d.title;
  if (d.explanation !== undefined) out.explanation = htmlToCell(d.explanation, true);
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
    const made = cellsOf(d);
    if ('why' in made) {
      problems.push(
        problem({ element: `question[${i + 1}]` }, 'not_exported', 'warning', {
          kind: d.question.kind,
          format,
          detail: made.why,
        }),
      );
      return;
    }
    const { cells } = made;
    rows.push(COLUMNS.map((c) => (c.field === 'option' ? cells[`option${c.letter}`] : cells[c.field]) ?? ''));
  });
  return { rows, problems };
}
