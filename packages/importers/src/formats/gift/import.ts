/** GIFT (Moodle's text format) to drafts, with Moodle's semantics. */
import { finishDraft, type RawDraft } from '../../draft.js';
import { choiceQuestion, foldFeedback, optionFeedback, trueFalseQuestion, type ChoiceAnswer } from '../../mapping.js';
import { problem, syntaxProblem } from '../../problems.js';
import { BLANK, formattedToHtml, htmlToText } from '../../richText.js';
import type { Draft, ImportLimits, Problem } from '../../types.js';

/** Escaped characters become private-use placeholders while the structure is split, and come back after. */
const ESCAPES: Record<string, string> = {
  '\\': '\ue000',
  '~': '\ue001',
  '=': '\ue002',
  '#': '\ue003',
  '{': '\ue004',
  '}': '\ue005',
  ':': '\ue006',
};
const UNESCAPE = new Map(Object.entries(ESCAPES).map(([c, p]) => [p, c]));

function hide(text: string): string {
  return text.replace(/\\([\\~=#{}:n])/g, (_m, c: string) => (c === 'n' ? '\n' : ESCAPES[c]!));
}
function reveal(text: string): string {
  return text.replace(/[\ue000-\ue006]/g, (c) => UNESCAPE.get(c)!);
}

/** One question's lines: text without comment lines, each character's line known. */
interface Block {
  text: string;
  /** Line of each text line, from 1. */
  lines: number[];
  /** Tags from `// [tag:x]` comments inside or just before the block. */
  tags: string[];
}

/** Splits the file into blocks at blank lines; comment lines (`//`) are dropped but may carry tags. */
function blocks(source: string): Block[] {
  const out: Block[] = [];
  let current: Block | null = null;
  let pendingTags: string[] = [];
  source.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('//')) {
      for (const m of trimmed.matchAll(/\[tag:([^\]]+)\]/g)) (current?.tags ?? pendingTags).push(m[1]!.trim());
      return;
    }
    if (trimmed === '') {
      if (current) out.push(current);
      current = null;
      return;
    }
    if (!current) {
      current = { text: line, lines: [i + 1], tags: pendingTags };
      pendingTags = [];
    } else {
      current.text += `\n${line}`;
      current.lines.push(i + 1);
    }
  });
  if (current) out.push(current);
  return out;
}

/** The line of a character offset within a block. */
function lineAt(block: Block, offset: number): number {
  const before = block.text.slice(0, offset).split('\n').length - 1;
  return block.lines[Math.min(before, block.lines.length - 1)]!;
}

const FORMAT = /^\s*\[(html|moodle|plain|markdown)\]/;

/** Text with its optional `[format]` prefix as HTML (the question's format when it has none). */
function rich(raw: string, inherited: string): string {
  const m = FORMAT.exec(raw);
  const format = m ? m[1]! : inherited;
  const text = reveal((m ? raw.slice(m[0].length) : raw).trim());
  return formattedToHtml(text, format === 'html' ? 'html' : format).trim();
}

/** Text with any `[format]` prefix removed, as plain text (accepted answers). */
function plain(raw: string): string {
  const m = FORMAT.exec(raw);
  const text = reveal((m ? raw.slice(m[0].length) : raw).trim());
  return m?.[1] === 'html' ? htmlToText(text) : text;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Reads a GIFT file. */
export function importGift(source: string, limits: ImportLimits): { questions: Draft[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const questions: Draft[] = [];
  let folder: string[] = [];
  // Tags written before a category line belong to the question after it.
  let carried: string[] = [];
  for (const block of blocks(hide(source))) {
    const where = { line: block.lines[0]! };
    const category = /^\s*\$CATEGORY:\s*(.*)$/s.exec(block.text);
    if (category) {
      folder = categoryPath(reveal(category[1]!.trim()));
      carried = block.tags;
      continue;
    }
    if (questions.length >= limits.questions) {
      problems.push(problem(where, 'too_many_questions', 'error', { limit: limits.questions }));
      break;
    }
    const raw = readBlock(block, problems);
    if (!raw) continue;
    const draft = finishDraft({ ...raw, folder, tags: [...carried, ...block.tags].map(reveal) }, problems);
    carried = [];
    if (draft) questions.push(draft);
  }
  return { questions, problems };
}

/** A Moodle category path as a folder path: `$course$/top/A/B` is ['A', 'B']. */
export function categoryPath(path: string): string[] {
  const parts = path
    .split(/(?<!\/)\/(?!\/)/)
    .map((p) => p.replace(/\/\//g, '/').trim())
    .filter(Boolean);
  if (parts[0] && /^\$\w+\$$/.test(parts[0])) parts.shift();
  if (parts[0] === 'top') parts.shift();
  return parts;
}

/** One block as a raw draft, or null with a problem. */
function readBlock(block: Block, problems: Problem[]): RawDraft | null {
  let text = block.text.trim();
  const start = block.text.indexOf(text[0] ?? '');
  const at = (offset: number) => ({ line: lineAt(block, start + offset) });
  const where = at(0);
  let title: string | undefined;
  const titled = /^::(.*?)::/s.exec(text);
  if (titled) {
    title = reveal(titled[1]!).trim();
    text = text.slice(titled[0].length);
  }
  const offset = titled ? titled[0].length : 0;
  const open = text.indexOf('{');
  if (open < 0) {
    problems.push(
      problem(where, 'no_counterpart', 'warning', {
        what: 'A description (text with no answers)',
        what_zh: '说明文字（无答案）',
      }),
    );
    return null;
  }
  const close = text.indexOf('}', open);
  if (close < 0) {
    problems.push(
      syntaxProblem(
        at(offset + open),
        'the answer block opened here has no closing }',
        '此处开始的答案块缺少右花括号 }',
      ),
    );
    return null;
  }
  const inner = text.slice(open + 1, close);
  const nested = inner.indexOf('{');
  if (nested >= 0) {
    problems.push(
      syntaxProblem(
        at(offset + open + 1 + nested),
        'a { inside an answer block must be escaped as \\{',
        '答案块内的 { 须写作 \\{',
      ),
    );
    return null;
  }
  const formatMatch = FORMAT.exec(text);
  const format = formatMatch?.[1] ?? 'moodle';
  const before = formatMatch ? text.slice(formatMatch[0].length, open) : text.slice(0, open);
  const after = text.slice(close + 1);
  const blockWhere = at(offset + open);
  return readAnswers(inner, before, after, format, title, blockWhere, where, problems);
}

/** Splits an answer block at unescaped markers (`=` and `~`), keeping each marker. */
function splitAnswers(inner: string): { mark: '=' | '~'; text: string }[] {
  const out: { mark: '=' | '~'; text: string }[] = [];
  for (const m of inner.matchAll(/([=~])([^=~]*)/g)) out.push({ mark: m[1] as '=' | '~', text: m[2]! });
  return out;
}

/** An answer's `%weight%`, text and `#feedback`. */
function weighted(raw: string): { weight: number | null; bad: string | null; text: string; feedback?: string } {
  let rest = raw.trim();
  let weight: number | null = null;
  let bad: string | null = null;
  const w = /^%([^%]*)%/.exec(rest);
  if (w) {
    const n = Number(w[1]);
    if (w[1]!.trim() === '' || !Number.isFinite(n) || n < -100 || n > 100) bad = w[1]!;
    else weight = n;
    rest = rest.slice(w[0].length);
  }
  const hash = rest.indexOf('#');
  if (hash < 0) return { weight, bad, text: rest };
  return { weight, bad, text: rest.slice(0, hash), feedback: rest.slice(hash + 1) };
}

function readAnswers(
  inner: string,
  before: string,
  after: string,
  format: string,
  title: string | undefined,
  where: { line: number },
  start: { line: number },
  problems: Problem[],
): RawDraft | null {
  let body = inner;
  let general: string | undefined;
  const gf = body.indexOf('####');
  if (gf >= 0) {
    general = rich(body.slice(gf + 4), format);
    body = body.slice(0, gf);
  }
  const trimmed = body.trim();
  const gap = after.trim() !== '';
  const stemWith = (blank: boolean) => {
    const html = gap ? `${before}${blank ? BLANK : ' '}${after}` : blank ? `${before.trimEnd()} ${BLANK}` : before;
    return rich(html, format);
  };
  const base = { title, where: start, explanation: general };
  const fail = (en: string, zh: string) => (problems.push(syntaxProblem(where, en, zh)), null);

  if (trimmed === '') return { ...base, question: { kind: 'qa', content: { stem: stemWith(false) }, key: {} } };

  const tf = /^(T|TRUE|F|FALSE)\s*(#[^#]*)?(#[^#]*)?$/i.exec(trimmed);
  if (tf) {
    const truth = tf[1]!.toUpperCase().startsWith('T');
    // `{TRUE#wrong#right}`: the first feedback is for the wrong option, the second for the right one.
    const wrong = tf[2] ? rich(tf[2].slice(1), format) : undefined;
    const right = tf[3] ? rich(tf[3].slice(1), format) : undefined;
    const feedback = optionFeedback(truth ? [right, wrong] : [wrong, right]);
    return { ...base, feedback, question: trueFalseQuestion(stemWith(false), truth) };
  }

  if (trimmed.startsWith('#')) return numeric(trimmed.slice(1), stemWith, base, where, start, problems);

  const answers = splitAnswers(body);
  if (answers.length === 0 || body.slice(0, body.search(/[=~]/)).trim() !== '')
    return fail(
      `the answer block "${reveal(trimmed).slice(0, 40)}" is not one GIFT knows (=right ~wrong, T/F, #number, or empty for an essay)`,
      `无法识别的答案块“${reveal(trimmed).slice(0, 40)}”（应为 =正确 ~错误、T/F、#数值，或留空表示问答题）`,
    );
  if (answers.some((a) => a.text.includes('->'))) {
    problems.push(problem(start, 'no_counterpart', 'warning', { what: 'A matching question', what_zh: '匹配题' }));
    return null;
  }
  const parsed = answers.map((a) => ({ mark: a.mark, ...weighted(a.text) }));
  const bad = parsed.find((p) => p.bad !== null);
  if (bad)
    return fail(
      `the weight %${reveal(bad.bad!)}% is not a percentage from -100 to 100`,
      `权重 %${reveal(bad.bad!)}% 不是 -100 到 100 之间的百分数`,
    );

  const anyWrong = parsed.some((p) => p.mark === '~');
  if (!anyWrong) {
    // Short answer: every `=` answer is accepted; partial credit has no counterpart on a blank.
    const variants: string[] = [];
    for (const p of parsed) {
      const value = plain(p.text);
      const fraction = p.weight ?? 100;
      if (fraction >= 100) variants.push(value);
      else if (fraction > 0)
        problems.push(problem(start, 'partial_credit_dropped', 'info', { answer: value, fraction }));
    }
    const explanation = foldFeedback(
      general,
      parsed.map((p) => ({ label: plain(p.text), feedback: p.feedback ? rich(p.feedback, format) : undefined })),
    );
    return {
      ...base,
      explanation,
      question: { kind: 'fill_blank', content: { stem: stemWith(true), blanks: 1 }, key: { blanks: [variants] } },
    };
  }

  const multi = !parsed.some((p) => p.mark === '=');
  const choices: ChoiceAnswer[] = parsed.map((p) => ({
    html: rich(p.text, format),
    fraction: p.mark === '=' ? (p.weight ?? 100) : (p.weight ?? 0),
    feedback: p.feedback ? rich(p.feedback, format) : undefined,
  }));
  const feedback = optionFeedback(choices.map((c) => c.feedback));
  return { ...base, feedback, question: choiceQuestion(stemWith(gap), choices, multi, start, problems) };
}

/** A numerical answer block: exact full-credit values become a blank's accepted answers; ranges are reported. */
function numeric(
  body: string,
  stemWith: (blank: boolean) => string,
  base: Pick<RawDraft, 'title' | 'where' | 'explanation'>,
  where: { line: number },
  start: { line: number },
  problems: Problem[],
): RawDraft | null {
  const entries = splitAnswers(/^[=~]/.test(body.trim()) ? body : `=${body}`);
  const accepted: string[] = [];
  for (const e of entries) {
    const { weight, text } = weighted(e.text);
    const value = reveal(text).trim();
    if (e.mark === '~' || value === '') continue;
    const fraction = weight ?? 100;
    const range = /^(.+?)\.\.(.+)$/.exec(value);
    const tol = /^(.+?):(.+)$/.exec(value);
    const numbers = range ? [range[1]!, range[2]!] : tol ? [tol[1]!, tol[2]!] : [value];
    const wrong = numbers.find((n) => !NUMBER.test(n.trim()));
    if (wrong !== undefined) {
      problems.push(syntaxProblem(where, `"${wrong}" is not a number`, `“${wrong}”不是数值`));
      return null;
    }
    const exact = !range && (!tol || Number(tol[2]) === 0);
    if (fraction < 100) {
      if (fraction > 0) problems.push(problem(start, 'partial_credit_dropped', 'info', { answer: value, fraction }));
      continue;
    }
    if (!exact) {
      problems.push(problem(start, 'numeric_not_exact', 'warning', { answer: value }));
      return null;
    }
    accepted.push(numbers[0]!.trim());
  }
  return {
    ...base,
    question: { kind: 'fill_blank', content: { stem: stemWith(true), blanks: 1 }, key: { blanks: [accepted] } },
  };
}
