/** Rows of a question sheet (xlsx or CSV) to drafts: both layouts, every problem at its row and column. */
import { OPTION_IDS, QUESTION_REGISTRY, type LanguageId, type QuestionKind } from '@examhall/contract';
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

/**
 * Why a kind cannot come from a sheet, in both languages, for the kinds with a reason of their own; a kind neither
 * here nor in SHEET_KINDS has no such question type in sheets (NO_SUCH_TYPE).
 */
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

/** Why a kind in neither NOT_IN_SHEETS nor SHEET_KINDS cannot come from a sheet. */
const NO_SUCH_TYPE = { en: 'Excel/CSV has no such question type', zh: '表格中没有这种题型' };

/**
 * One question's rows (one row, or a group of option rows) as the readers of each kind ask for them: a field's
 * cell, the options with their flags and points, the answer cell read as letters or points, and the problems
 * found so far, each at its cell.
 */
class QuestionRows {
  readonly errors: Problem[] = [];
  readonly where: Where;
  readonly options: Val[] = [];
  readonly optionList: { id: string; content: string }[];
  readonly answerVal: Val | undefined;
  readonly stemVal: Val | undefined;
  readonly stem: string;
  private readonly flags: (Val | undefined)[] = [];
  private readonly weights: (Val | undefined)[] = [];
  private readonly feedbacks: (Val | undefined)[] = [];

  constructor(
    private readonly group: SheetRows['rows'],
    readonly columns: Columns,
    private readonly base: Where,
  ) {
    this.where = { ...base, row: group[0]!.n };
    this.readOptions();
    this.optionList = this.options.map((o, i) => ({ id: letterAt(i), content: cellToHtml(o.text, false) }));
    this.answerVal = this.get('answer');
    this.stemVal = this.get('stem');
    this.stem = this.stemVal ? cellToHtml(this.stemVal.text, true) : '';
  }

  /** A question-level field, read from the first row of the group that fills it. */
  get(field: Field): Val | undefined {
    const col = this.columns.fields[field];
    if (col === undefined) return undefined;
    for (const row of this.group) {
      const text = (row.cells[col] ?? '').trim();
      if (text !== '') return { text, at: { ...this.base, row: row.n, col: columnLetter(col) } };
    }
    return undefined;
  }

  /** A field the question needs is empty (or its column is missing). */
  missing(field: Field, row = this.where.row!): void {
    const col = this.columns.fields[field];
    this.errors.push(
      col === undefined
        ? problem({ ...this.base, row }, 'cell_missing', 'error', {
            field: FIELD_NAMES[field].en,
            field_zh: FIELD_NAMES[field].zh,
          })
        : at(this.base, row, col, 'cell_missing', field),
    );
  }

  /** A cell's value does not fit its field. */
  invalid(v: Val, field: Field, detail: string, detail_zh: string): void {
    this.errors.push(
      problem(v.at, 'cell_invalid', 'error', {
        field: FIELD_NAMES[field].en,
        field_zh: FIELD_NAMES[field].zh,
        value: v.text,
        detail,
        detail_zh,
      }),
    );
  }

  /** Option letters from the answer cell (`AC`, `A,C`, `A、C`), each checked against the options. */
  letters(v: Val): string[] {
    const tokens = /^[A-Za-z]+$/.test(v.text) ? [...v.text] : v.text.split(/[\s,，、;；|]+/).filter(Boolean);
    const out: string[] = [];
    for (const t of tokens) {
      const id = t.toUpperCase();
      if (!this.isOption(id)) this.errors.push(problem(v.at, 'answer_not_option', 'error', { answer: t }));
      else if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /** Letters of the rows marked right (one-row-per-option layout). */
  flagged(): string[] {
    const out: string[] = [];
    this.flags.forEach((f, i) => {
      if (!f) return;
      const truth = truthOf(f.text);
      if (truth === null) this.invalid(f, 'correct', 'write 是/否 (yes/no, 1/0)', '请填写 是/否（或 1/0）');
      else if (truth) out.push(letterAt(i));
    });
    return out;
  }

  /** Points per option from `A=5;B=3` in the answer cell or from the option rows' 选项分值. */
  scores(): Record<string, number> | null {
    const out: Record<string, number> = {};
    const answer = this.answerVal;
    if (this.columns.layout === 'per_option' && !answer) {
      this.weights.forEach((w, i) => {
        if (!w) return;
        const n = Number(w.text);
        if (!Number.isFinite(n)) this.invalid(w, 'option_points', 'not a number', '不是数字');
        else out[letterAt(i)] = n;
      });
      return out;
    }
    if (!answer) return null;
    for (const part of answer.text.split(/[;；,，\n]+/).filter((p) => p.trim() !== '')) {
      const m = /^\s*([A-Za-z])\s*[=:：]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(part);
      if (!m) {
        this.invalid(answer, 'answer', "write each option's points as A=5;B=3", '请按 A=5;B=3 的格式填写各选项分值');
        return null;
      }
      const id = m[1]!.toUpperCase();
      if (!this.isOption(id)) this.errors.push(problem(answer.at, 'answer_not_option', 'error', { answer: m[1]! }));
      else out[id] = Number(m[2]);
    }
    return out;
  }

  /**
   * Feedback per option: each option row's 选项反馈 cell, or in the one-row layout one line per option in the
   * question's (`A: ...`, `B=...`), each letter checked against the options.
   */
  feedback(): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.columns.layout === 'per_option') {
      this.feedbacks.forEach((f, i) => {
        if (f) out[letterAt(i)] = cellToHtml(f.text, false);
      });
      return out;
    }
    const cell = this.get('feedback');
    if (!cell) return out;
    let last: string | null = null;
    for (const line of cell.text.split(/\r?\n/)) {
      const m = /^\s*([A-Ha-h])\s*[=:：.、]\s*(.*)$/.exec(line);
      if (m) {
        last = m[1]!.toUpperCase();
        if (!this.isOption(last)) this.errors.push(problem(cell.at, 'answer_not_option', 'error', { answer: m[1]! }));
        out[last] = m[2]!;
      } else if (last !== null) out[last] = `${out[last]}\n${line}`;
      else if (line.trim() !== '')
        this.invalid(cell, 'feedback', "write one line per option: 'A: ...'", '请每行写一个选项的反馈：“A：……”');
    }
    for (const [id, text] of Object.entries(out)) out[id] = cellToHtml(text.trim(), false);
    return out;
  }

  private isOption(id: string): boolean {
    return this.optionList.some((o) => o.id === id);
  }

  /** Options: the letter columns of the one-row layout, or one row each in the other layout. */
  private readOptions(): void {
    const first = this.group[0]!;
    if (this.columns.layout === 'per_question') {
      let gap: number | null = null;
      for (const l of this.columns.letters) {
        const text = (first.cells[l.col] ?? '').trim();
        if (text === '') {
          gap ??= l.col;
          continue;
        }
        // A filled option after an empty one: the letters would shift, so the empty one is the problem.
        if (gap !== null) this.errors.push(at(this.base, first.n, gap, 'cell_missing', 'option'));
        gap = null;
        this.options.push({ text, at: { ...this.base, row: first.n, col: columnLetter(l.col) } });
      }
      return;
    }
    const cell = (row: SheetRows['rows'][number], col: number | undefined): Val | undefined => {
      const text = col === undefined ? '' : (row.cells[col] ?? '').trim();
      return text === '' ? undefined : { text, at: { ...this.base, row: row.n, col: columnLetter(col!) } };
    };
    for (const row of this.group) {
      const option = cell(row, this.columns.fields.option);
      if (!option) continue;
      this.options.push(option);
      this.flags.push(cell(row, this.columns.fields.correct));
      this.weights.push(cell(row, this.columns.fields.option_points));
      this.feedbacks.push(cell(row, this.columns.fields.feedback));
    }
  }
}

/** The letter of the option at `i`. */
const letterAt = (i: number) => OPTION_IDS[i] ?? String.fromCharCode(65 + i);

/** How a sheet's rows make a question of a kind; the kinds a sheet cannot carry are in NOT_IN_SHEETS. */
type KindReader = (r: QuestionRows) => RawDraft['question'];

function choiceQuestion(kind: 'single' | 'multiple' | 'indefinite'): KindReader {
  return (r) => {
    const right = r.answerVal ? r.letters(r.answerVal) : r.flagged();
    if (right.length === 0 && !r.answerVal) r.missing(r.columns.layout === 'per_option' ? 'correct' : 'answer');
    const content = { stem: r.stem, options: r.optionList };
    if (kind !== 'single') return { kind, content, key: { options: right } };
    if (right.length > 1 && r.answerVal)
      r.invalid(r.answerVal, 'answer', 'a single-choice question has one right option', '单选题只能有一个正确选项');
    return { kind, content, key: { option: right.length === 1 ? right[0]! : right.join('') } };
  };
}

const trueFalseQuestion: KindReader = (r) => {
  const kind = 'true_false';
  const opts =
    r.optionList.length === 2 ? r.optionList : TRUE_FALSE_OPTIONS.map((content, i) => ({ id: letterAt(i), content }));
  if (r.optionList.length !== 0 && r.optionList.length !== 2)
    r.errors.push(
      problem(r.options[2]?.at ?? r.where, 'invalid_question', 'error', {
        kind,
        detail: 'a true/false question has two options',
      }),
    );
  let option = '';
  if (r.answerVal) {
    const t = r.answerVal.text.toUpperCase();
    if (t === 'A' || t === 'B') option = t;
    else {
      const truth = truthOf(r.answerVal.text);
      if (truth === null)
        r.invalid(r.answerVal, 'answer', 'write 正确 or 错误 (true/false, A/B)', '请填写 正确 或 错误（或 A/B）');
      else option = truth ? 'A' : 'B';
    }
  } else {
    const right = r.flagged();
    if (right.length === 1) option = right[0]!;
    else r.missing('answer');
  }
  return { kind, content: { stem: r.stem, options: opts }, key: { option } };
};

function scaleQuestion(kind: 'gradient' | 'evaluation'): KindReader {
  return (r) => {
    const s = r.scores();
    if (s === null) r.missing('answer');
    const dimension = r.get('dimension');
    if (kind === 'evaluation' && !dimension) r.missing('dimension');
    const content =
      kind === 'evaluation'
        ? { stem: r.stem, options: r.optionList, dimension: dimension?.text ?? '' }
        : { stem: r.stem, options: r.optionList };
    return { kind, content, key: { scores: s ?? {} } } as RawDraft['question'];
  };
}

const blankQuestion: KindReader = (r) => {
  // One blank per `;` of the answer cell, or one per option row; `|` separates a blank's accepted answers.
  const groups = r.answerVal ? r.answerVal.text.split(/[;；]/) : r.options.map((o) => o.text);
  const blanks = groups.map((g) =>
    g
      .split(/[|｜]/)
      .map((v) => v.trim())
      .filter(Boolean),
  );
  if (!r.answerVal && r.options.length === 0) r.missing('answer');
  const marked = r.stem.replace(/_{3,}/g, BLANK);
  const count = marked.split(BLANK).length - 1;
  if (blanks.length > 0 && count !== blanks.length && r.stemVal)
    r.errors.push(
      problem((r.answerVal ?? r.stemVal).at, 'blank_count', 'error', { stem: count, answer: blanks.length }),
    );
  return { kind: 'fill_blank', content: { stem: marked, blanks: count }, key: { blanks } };
};

const rubricOf = (r: QuestionRows) => (r.answerVal ? { rubric: cellToHtml(r.answerVal.text, true) } : {});

const programmingQaQuestion: KindReader = (r) => {
  const langVal = r.get('languages');
  const languages: LanguageId[] = [];
  if (!langVal) r.missing('languages');
  for (const name of langVal?.text.split(/[\s,，、;；|]+/).filter(Boolean) ?? []) {
    const id = languageOf(name);
    if (!id) r.invalid(langVal!, 'languages', `"${name}" is not a language the judge runs`, `评测机不支持“${name}”`);
    else if (!languages.includes(id)) languages.push(id);
  }
  return { kind: 'programming_qa', content: { stem: r.stem, languages }, key: rubricOf(r) };
};

/** Each kind a sheet carries, by how its rows make the question. */
const SHEET_KINDS: Partial<Record<QuestionKind, KindReader>> = {
  single: choiceQuestion('single'),
  multiple: choiceQuestion('multiple'),
  indefinite: choiceQuestion('indefinite'),
  true_false: trueFalseQuestion,
  gradient: scaleQuestion('gradient'),
  evaluation: scaleQuestion('evaluation'),
  fill_blank: blankQuestion,
  qa: (r) => ({ kind: 'qa', content: { stem: r.stem }, key: rubricOf(r) }),
  programming_qa: programmingQaQuestion,
};

/** Points and difficulty, when given, checked against their ranges. */
function scoring(r: QuestionRows): { points?: number; difficulty?: number } {
  const out: { points?: number; difficulty?: number } = {};
  const pointsVal = r.get('points');
  if (pointsVal) {
    const n = Number(pointsVal.text);
    if (!Number.isFinite(n) || n < 0 || n > 1000)
      r.invalid(pointsVal, 'points', 'a number from 0 to 1000', '应为 0 到 1000 的数字');
    else out.points = n;
  }
  const difficultyVal = r.get('difficulty');
  if (difficultyVal) {
    const d = difficultyOf(difficultyVal.text);
    if (d === null)
      r.invalid(
        difficultyVal,
        'difficulty',
        '1 to 5, or 简单/较易/中等/较难/困难',
        '应为 1 到 5，或 简单/较易/中等/较难/困难',
      );
    else out.difficulty = d;
  }
  return out;
}

/** The kind a group's type cell names, or null with the problem recorded (a kind no sheet carries: a warning). */
function kindOfRows(r: QuestionRows, problems: Problem[]): KindReader | null {
  const typeVal = r.get('type');
  if (!typeVal) {
    const before = r.errors.length;
    r.missing('type');
    problems.push(...r.errors.slice(before));
    return null;
  }
  const kind = kindOf(typeVal.text);
  if (!kind) {
    problems.push(problem(typeVal.at, 'unknown_question_type', 'error', { type: typeVal.text }));
    return null;
  }
  const unsupported = NOT_IN_SHEETS[kind];
  const reader = SHEET_KINDS[kind];
  if (unsupported || !reader) {
    const why = unsupported ?? NO_SUCH_TYPE;
    problems.push(
      problem(typeVal.at, 'kind_not_in_format', 'warning', {
        kind,
        kind_zh: unsupported?.kind_zh ?? QUESTION_REGISTRY[kind].label['zh-CN'],
        format: 'Excel/CSV',
        detail: why.en,
        detail_zh: why.zh,
      }),
    );
    return null;
  }
  return reader;
}

/** One question from its row (or its group of rows), or null with its problems; never a half-built draft. */
function readQuestion(group: SheetRows['rows'], columns: Columns, base: Where, problems: Problem[]): Draft | null {
  const r = new QuestionRows(group, columns, base);
  const reader = kindOfRows(r, problems);
  if (!reader) return null;
  if (!r.stemVal) r.missing('stem');
  const question = reader(r);
  const { points, difficulty } = scoring(r);
  const feedback = r.feedback();
  if (r.errors.length > 0) {
    problems.push(...r.errors);
    return null;
  }
  const list = (field: Field) =>
    r
      .get(field)
      ?.text.split(/[,，、;；|\n]+/)
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const raw: RawDraft = {
    question,
    folder:
      r
        .get('folder')
        ?.text.split(/[/／>]+/)
        .map((s) => s.trim())
        .filter(Boolean) ?? [],
    tags: list('tags'),
    knowledge_points: list('knowledge'),
    where: r.where,
  };
  const title = r.get('title');
  const explanation = r.get('explanation');
  if (title) raw.title = title.text;
  if (explanation) raw.explanation = cellToHtml(explanation.text, true);
  if (Object.keys(feedback).length > 0) raw.feedback = feedback;
  if (points !== undefined) raw.points = points;
  if (difficulty !== undefined) raw.difficulty = difficulty;
  return finishDraft(raw, problems);
}
