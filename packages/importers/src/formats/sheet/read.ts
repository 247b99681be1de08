/** Rows of a question sheet (xlsx or CSV) to drafts: both layouts, every problem at its row and column. */
import { OPTION_IDS, type LanguageId, type QuestionKind } from '@examhall/contract';
import { finishDraft, type RawDraft } from '../../draft.js';
import { languageOf } from '../../languages.js';
import { TRUE_FALSE_OPTIONS } from '../../mapping.js';
import { problem, type ProblemCode } from '../../problems.js';
import { BLANK, decodeEntities, escapeHtml } from '../../richText.js';
import type { Draft, ImportLimits, Problem, Where } from '../../types.js';
import { columnLetter, difficultyOf, FIELD_NAMES, headerOf, kindOf, truthOf, type Field } from './columns.js';

/** A sheet as rows of cell texts; `n` is the row's number in the file (from 1). */
export interface SheetRows {
  /** Sheet name (xlsx); none for CSV. */
  name?: string;
  /** Non-empty rows in order. */
  rows: { n: number; cells: string[] }[];
}

/** A cell's text and where it stands. */
interface Val {
  text: string;
  at: Where;
}

/** The header: the column of each field and of each option letter. */
interface Columns {
  fields: Partial<Record<Field, number>>;
  letters: { letter: string; col: number }[];
  layout: 'per_question' | 'per_option';
}

const HTML_TAG =
  /<\/?(p|br|div|span|strong|b|em|i|u|s|img|code|pre|ul|ol|li|table|thead|tbody|tr|td|th|sub|sup|a|h[1-6]|blockquote|hr|font)\b[^>]*>/i;

const ENTITY = /&(lt|gt|amp|quot|apos|nbsp|#\d+|#x[0-9a-f]+);/i;

/**
 * A cell as stored rich text: HTML (a known tag or an entity) stays as it is; plain text is escaped (line breaks
 * kept), stems in a `<p>`.
 */
export function cellToHtml(text: string, paragraph: boolean): string {
  if (HTML_TAG.test(text) || ENTITY.test(text)) return text;
  const html = escapeHtml(text).replace(/\r?\n/g, '<br>');
  return paragraph ? `<p>${html}</p>` : html;
}

/** Rich text as a cell: plain text when reading it back gives the same HTML, the HTML itself otherwise. */
export function htmlToCell(html: string, paragraph: boolean): string {
  const inner = paragraph ? /^<p>([\s\S]*)<\/p>$/.exec(html)?.[1] : html;
  if (inner === undefined || /<(?!br>)/i.test(inner)) return html;
  const plain = decodeEntities(inner.replace(/<br>/g, '\n'));
  return plain === plain.trim() && cellToHtml(plain, paragraph) === html ? plain : html;
}

/** Finds the header among the first rows; null when no row names both the type and the stem. */
function findHeader(sheet: SheetRows): { index: number; columns: Columns } | null {
  for (let i = 0; i < Math.min(sheet.rows.length, 10); i++) {
    const fields: Partial<Record<Field, number>> = {};
    const letters: { letter: string; col: number }[] = [];
    sheet.rows[i]!.cells.forEach((text, col) => {
      const h = headerOf(text);
      if (!h) return;
      if (h.field === 'option' && 'letter' in h && h.letter) {
        if (!letters.some((l) => l.letter === h.letter)) letters.push({ letter: h.letter, col });
      } else if (fields[h.field] === undefined) fields[h.field] = col;
    });
    if (fields.type === undefined || fields.stem === undefined) continue;
    letters.sort((a, b) => a.letter.localeCompare(b.letter));
    const layout =
      letters.length === 0 && fields.number !== undefined && fields.option !== undefined
        ? 'per_option'
        : 'per_question';
    return { index: i, columns: { fields, letters, layout } };
  }
  return null;
}

/**
 * Reads the first sheet that has a header row (题型 and 题干, or their English names); the layout is one row per
 * question (选项A…选项H) or one row per option grouped by 题号, told apart by the header.
 */
export function readSheets(
  sheets: SheetRows[],
  limits: ImportLimits,
  file: Where,
): { questions: Draft[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const questions: Draft[] = [];
  for (const sheet of sheets) {
    const header = findHeader(sheet);
    if (!header) continue;
    const base: Where = sheet.name === undefined ? { ...file } : { ...file, sheet: sheet.name };
    const rows = sheet.rows.slice(header.index + 1);
    const groups =
      header.columns.layout === 'per_question' ? rows.map((r) => [r]) : groupRows(rows, header.columns, base, problems);
    for (const group of groups) {
      if (questions.length >= limits.questions) {
        problems.push(
          problem({ ...base, row: group[0]!.n }, 'too_many_questions', 'error', { limit: limits.questions }),
        );
        break;
      }
      const draft = readQuestion(group, header.columns, base, problems);
      if (draft) questions.push(draft);
    }
    return { questions, problems };
  }
  const first = sheets[0];
  problems.push(
    problem(first?.name === undefined ? { ...file } : { ...file, sheet: first.name }, 'sheet_no_header', 'error'),
  );
  return { questions, problems };
}

/** Rows of the one-row-per-option layout grouped by 题号 (a row with no number continues the question above). */
function groupRows(rows: SheetRows['rows'], columns: Columns, base: Where, problems: Problem[]): SheetRows['rows'][] {
  const groups: SheetRows['rows'][] = [];
  const col = columns.fields.number!;
  let current: string | null = null;
  for (const row of rows) {
    const number = (row.cells[col] ?? '').trim();
    if (number === '' && groups.length === 0) {
      problems.push(at(base, row.n, col, 'cell_missing', 'number'));
      continue;
    }
    if (number !== '' && number !== current) {
      groups.push([row]);
      current = number;
    } else groups[groups.length - 1]!.push(row);
  }
  return groups;
}

/** A located problem about one cell, its field named in both languages. */
function at(
  base: Where,
  row: number,
  col: number,
  code: ProblemCode,
  field: Field,
  params: Record<string, string | number> = {},
  severity: Problem['severity'] = 'error',
): Problem {
  const names = FIELD_NAMES[field];
  return problem({ ...base, row, col: columnLetter(col) }, code, severity, {
    field: names.en,
    field_zh: names.zh,
    ...params,
  });
}

/** Why a kind cannot come from a sheet, in both languages; null when it can. */
const NOT_IN_SHEETS: Partial<Record<QuestionKind, { en: string; zh: string; kind_zh: string }>> = {
  programming: {
    en: 'import programming problems as FPS XML or as a problem zip (statement, cases, limits)',
    zh: '编程题请用 FPS XML 或编程题压缩包导入（题面、测试用例、限制）',
    kind_zh: '编程题',
  },
  reading: {
    en: 'a passage with sub-questions does not fit in rows; import it as Moodle XML (cloze) or QTI, or write it in the console',
    zh: '带小题的阅读材料无法放进表格行；请用 Moodle XML（完形）或 QTI 导入，或在控制台中编写',
    kind_zh: '阅读理解题',
  },
  listening: {
    en: 'audio and sub-questions do not fit in rows; write it in the console',
    zh: '音频和小题无法放进表格行；请在控制台中编写',
    kind_zh: '听力题',
  },
};

/** One question from its row (or its group of rows), or null with its problems; never a half-built draft. */
function readQuestion(group: SheetRows['rows'], columns: Columns, base: Where, problems: Problem[]): Draft | null {
  const first = group[0]!;
  const where: Where = { ...base, row: first.n };
  const errors: Problem[] = [];
  // A question-level field is read from the first row of the group that fills it.
  const get = (field: Field): Val | undefined => {
    const col = columns.fields[field];
    if (col === undefined) return undefined;
    for (const row of group) {
      const text = (row.cells[col] ?? '').trim();
      if (text !== '') return { text, at: { ...base, row: row.n, col: columnLetter(col) } };
    }
    return undefined;
  };
  const missing = (field: Field, row = first.n) => {
    const col = columns.fields[field];
    errors.push(
      col === undefined
        ? problem({ ...base, row }, 'cell_missing', 'error', {
            field: FIELD_NAMES[field].en,
            field_zh: FIELD_NAMES[field].zh,
          })
        : at(base, row, col, 'cell_missing', field),
    );
  };
  const invalid = (v: Val, field: Field, detail: string, detail_zh: string) =>
    errors.push(
      problem(v.at, 'cell_invalid', 'error', {
        field: FIELD_NAMES[field].en,
        field_zh: FIELD_NAMES[field].zh,
        value: v.text,
        detail,
        detail_zh,
      }),
    );

  const typeVal = get('type');
  if (!typeVal) {
    missing('type');
    problems.push(...errors);
    return null;
  }
  const kind = kindOf(typeVal.text);
  if (!kind) {
    problems.push(problem(typeVal.at, 'unknown_question_type', 'error', { type: typeVal.text }));
    return null;
  }
  const unsupported = NOT_IN_SHEETS[kind];
  if (unsupported) {
    problems.push(
      problem(typeVal.at, 'kind_not_in_format', 'warning', {
        kind,
        kind_zh: unsupported.kind_zh,
        format: 'Excel/CSV',
        detail: unsupported.en,
        detail_zh: unsupported.zh,
      }),
    );
    return null;
  }
  const stemVal = get('stem');
  if (!stemVal) missing('stem');

  // Options: the letter columns of the one-row layout, or one row each in the other layout.
  const options: Val[] = [];
  const flags: (Val | undefined)[] = [];
  const weights: (Val | undefined)[] = [];
  if (columns.layout === 'per_question') {
    let gap: number | null = null;
    for (const l of columns.letters) {
      const text = (first.cells[l.col] ?? '').trim();
      if (text === '') {
        gap ??= l.col;
        continue;
      }
      // A filled option after an empty one: the letters would shift, so the empty one is the problem.
      if (gap !== null) errors.push(at(base, first.n, gap, 'cell_missing', 'option'));
      gap = null;
      options.push({ text, at: { ...base, row: first.n, col: columnLetter(l.col) } });
    }
  } else {
    const oc = columns.fields.option!;
    const cc = columns.fields.correct;
    const pc = columns.fields.option_points;
    for (const row of group) {
      const text = (row.cells[oc] ?? '').trim();
      if (text === '') continue;
      options.push({ text, at: { ...base, row: row.n, col: columnLetter(oc) } });
      const flag = cc === undefined ? '' : (row.cells[cc] ?? '').trim();
      flags.push(flag === '' ? undefined : { text: flag, at: { ...base, row: row.n, col: columnLetter(cc!) } });
      const weight = pc === undefined ? '' : (row.cells[pc] ?? '').trim();
      weights.push(weight === '' ? undefined : { text: weight, at: { ...base, row: row.n, col: columnLetter(pc!) } });
    }
  }
  const letterAt = (i: number) => OPTION_IDS[i] ?? String.fromCharCode(65 + i);
  const optionList = options.map((o, i) => ({ id: letterAt(i), content: cellToHtml(o.text, false) }));
  const answerVal = get('answer');
  const stem = stemVal ? cellToHtml(stemVal.text, true) : '';

  /** Option letters from the answer cell (`AC`, `A,C`, `A、C`), each checked against the options. */
  const letters = (v: Val): string[] => {
    const tokens = /^[A-Za-z]+$/.test(v.text) ? [...v.text] : v.text.split(/[\s,，、;；|]+/).filter(Boolean);
    const out: string[] = [];
    for (const t of tokens) {
      const id = t.toUpperCase();
      if (!optionList.some((o) => o.id === id)) errors.push(problem(v.at, 'answer_not_option', 'error', { answer: t }));
      else if (!out.includes(id)) out.push(id);
    }
    return out;
  };
  /** Letters of the rows marked right (one-row-per-option layout). */
  const flagged = (): string[] => {
    const out: string[] = [];
    flags.forEach((f, i) => {
      if (!f) return;
      const truth = truthOf(f.text);
      if (truth === null) invalid(f, 'correct', 'write 是/否 (yes/no, 1/0)', '请填写 是/否（或 1/0）');
      else if (truth) out.push(letterAt(i));
    });
    return out;
  };
  /** Points per option from `A=5;B=3` in the answer cell or from the option rows' 选项分值. */
  const scores = (): Record<string, number> | null => {
    const out: Record<string, number> = {};
    if (columns.layout === 'per_option' && !answerVal) {
      weights.forEach((w, i) => {
        if (!w) return;
        const n = Number(w.text);
        if (!Number.isFinite(n)) invalid(w, 'option_points', 'not a number', '不是数字');
        else out[letterAt(i)] = n;
      });
      return out;
    }
    if (!answerVal) return null;
    for (const part of answerVal.text.split(/[;；,，\n]+/).filter((p) => p.trim() !== '')) {
      const m = /^\s*([A-Za-z])\s*[=:：]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(part);
      if (!m) {
        invalid(answerVal, 'answer', "write each option's points as A=5;B=3", '请按 A=5;B=3 的格式填写各选项分值');
        return null;
      }
      const id = m[1]!.toUpperCase();
      if (!optionList.some((o) => o.id === id))
        errors.push(problem(answerVal.at, 'answer_not_option', 'error', { answer: m[1]! }));
      else out[id] = Number(m[2]);
    }
    return out;
  };

  let question: RawDraft['question'] | null = null;
  switch (kind) {
    case 'single':
    case 'multiple':
    case 'indefinite': {
      const right = answerVal ? letters(answerVal) : flagged();
      if (right.length === 0 && !answerVal) missing(columns.layout === 'per_option' ? 'correct' : 'answer');
      question =
        kind === 'single'
          ? {
              kind,
              content: { stem, options: optionList },
              key: { option: right.length === 1 ? right[0]! : right.join('') },
            }
          : { kind, content: { stem, options: optionList }, key: { options: right } };
      if (kind === 'single' && right.length > 1 && answerVal)
        invalid(answerVal, 'answer', 'a single-choice question has one right option', '单选题只能有一个正确选项');
      break;
    }
    case 'true_false': {
      const opts =
        optionList.length === 2 ? optionList : TRUE_FALSE_OPTIONS.map((content, i) => ({ id: letterAt(i), content }));
      if (optionList.length !== 0 && optionList.length !== 2)
        errors.push(
          problem(options[2]?.at ?? where, 'invalid_question', 'error', {
            kind,
            detail: 'a true/false question has two options',
          }),
        );
      let option = '';
      if (answerVal) {
        const t = answerVal.text.toUpperCase();
        if (t === 'A' || t === 'B') option = t;
        else {
          const truth = truthOf(answerVal.text);
          if (truth === null)
            invalid(answerVal, 'answer', 'write 正确 or 错误 (true/false, A/B)', '请填写 正确 或 错误（或 A/B）');
          else option = truth ? 'A' : 'B';
        }
      } else {
        const right = flagged();
        if (right.length === 1) option = right[0]!;
        else missing('answer');
      }
      question = { kind, content: { stem, options: opts }, key: { option } };
      break;
    }
    case 'gradient':
    case 'evaluation': {
      const s = scores();
      if (s === null) missing('answer');
      const content =
        kind === 'evaluation'
          ? { stem, options: optionList, dimension: get('dimension')?.text ?? '' }
          : { stem, options: optionList };
      if (kind === 'evaluation' && !get('dimension')) missing('dimension');
      question = { kind, content, key: { scores: s ?? {} } } as RawDraft['question'];
      break;
    }
    case 'fill_blank': {
      // One blank per `;` of the answer cell, or one per option row; `|` separates a blank's accepted answers.
      const groups = answerVal ? answerVal.text.split(/[;；]/) : options.map((o) => o.text);
      const blanks = groups.map((g) =>
        g
          .split(/[|｜]/)
          .map((v) => v.trim())
          .filter(Boolean),
      );
      if (!answerVal && options.length === 0) missing('answer');
      const marked = stem.replace(/_{3,}/g, BLANK);
      const count = marked.split(BLANK).length - 1;
      if (blanks.length > 0 && count !== blanks.length && stemVal)
        errors.push(problem((answerVal ?? stemVal).at, 'blank_count', 'error', { stem: count, answer: blanks.length }));
      question = { kind, content: { stem: marked, blanks: count }, key: { blanks } };
      break;
    }
    case 'qa':
      question = { kind, content: { stem }, key: answerVal ? { rubric: cellToHtml(answerVal.text, true) } : {} };
      break;
    case 'programming_qa': {
      const langVal = get('languages');
      const languages: LanguageId[] = [];
      if (!langVal) missing('languages');
      for (const name of langVal?.text.split(/[\s,，、;；|]+/).filter(Boolean) ?? []) {
        const id = languageOf(name);
        if (!id) invalid(langVal!, 'languages', `"${name}" is not a language the judge runs`, `评测机不支持“${name}”`);
        else if (!languages.includes(id)) languages.push(id);
      }
      question = {
        kind,
        content: { stem, languages },
        key: answerVal ? { rubric: cellToHtml(answerVal.text, true) } : {},
      };
      break;
    }
    case 'programming':
    case 'reading':
    case 'listening':
      return null;
  }

  const pointsVal = get('points');
  let points: number | undefined;
  if (pointsVal) {
    const n = Number(pointsVal.text);
    if (!Number.isFinite(n) || n < 0 || n > 1000)
      invalid(pointsVal, 'points', 'a number from 0 to 1000', '应为 0 到 1000 的数字');
    else points = n;
  }
  const difficultyVal = get('difficulty');
  let difficulty: number | undefined;
  if (difficultyVal) {
    const d = difficultyOf(difficultyVal.text);
    if (d === null)
      invalid(
        difficultyVal,
        'difficulty',
        '1 to 5, or 简单/较易/中等/较难/困难',
        '应为 1 到 5，或 简单/较易/中等/较难/困难',
      );
    else difficulty = d;
  }
  if (errors.length > 0) {
    problems.push(...errors);
    return null;
  }
  const list = (field: Field) =>
    get(field)
      ?.text.split(/[,，、;；|\n]+/)
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const explanation = get('explanation');
  const raw: RawDraft = {
    question: question!,
    folder:
      get('folder')
        ?.text.split(/[/／>]+/)
        .map((s) => s.trim())
        .filter(Boolean) ?? [],
    tags: list('tags'),
    knowledge_points: list('knowledge'),
    where,
  };
  const title = get('title');
  if (title) raw.title = title.text;
  if (explanation) raw.explanation = cellToHtml(explanation.text, true);
  if (points !== undefined) raw.points = points;
  if (difficulty !== undefined) raw.difficulty = difficulty;
  return finishDraft(raw, problems);
}
