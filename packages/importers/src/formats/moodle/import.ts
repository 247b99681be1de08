/** Moodle XML to drafts: categories become folders, embedded files are extracted and linked. */
import { finishDraft, type RawDraft } from '../../draft.js';
import {
  choiceQuestion,
  foldFeedback,
  gapFeedback,
  gappedQuestion,
  optionFeedback,
  trueFalseQuestion,
  type ChoiceAnswer,
  type Gap,
} from '../../mapping.js';
import { problem } from '../../problems.js';
import { fileUrl, formattedToHtml, htmlToText, mimeOf } from '../../richText.js';
import type { Draft, EmbeddedFile, ImportLimits, Problem, Where } from '../../types.js';
import { kid, kids, parseXml, textOf, type El } from '../../xml.js';
import { categoryPath } from '../gift/import.js';

/** What one import of a Moodle file collects. */
interface Context {
  problems: Problem[];
  files: EmbeddedFile[];
}

/** Reads a Moodle XML file. */
export function importMoodle(
  text: string,
  limits: ImportLimits,
): { questions: Draft[]; problems: Problem[]; files: EmbeddedFile[] } {
  const ctx: Context = { problems: [], files: [] };
  const questions: Draft[] = [];
  const root = parseXml(text, {}, ctx.problems);
  if (!root) return { questions, problems: ctx.problems, files: [] };
  if (root.name !== 'quiz') {
    ctx.problems.push(
      problem({ line: root.line, element: root.name }, 'xml_unexpected_root', 'error', {
        expected: 'quiz',
        found: root.name,
      }),
    );
    return { questions, problems: ctx.problems, files: [] };
  }
  let folder: string[] = [];
  kids(root, 'question').forEach((q, i) => {
    const type = q.attrs.type ?? '';
    const where: Where = { line: q.line, element: `question[${i + 1}] type="${type}"` };
    if (type === 'category') {
      folder = categoryPath(textOf(kid(kid(q, 'category'), 'text')).trim());
      return;
    }
    if (questions.length >= limits.questions) {
      if (questions.length === limits.questions)
        ctx.problems.push(problem(where, 'too_many_questions', 'error', { limit: limits.questions }));
      return;
    }
    const raw = readQuestion(q, type, where, ctx);
    if (!raw) return;
    const tags = kids(kid(q, 'tags') ?? q, 'tag').map((t) => textOf(kid(t, 'text')).trim());
    const draft = finishDraft({ ...raw, folder, tags }, ctx.problems);
    if (draft) questions.push(draft);
  });
  return { questions, problems: ctx.problems, files: ctx.files };
}

/** The HTML of a text-bearing element (`questiontext`, `answer`, `feedback`...), its `<file>`s extracted and linked. */
function richOf(el: El | undefined, ctx: Context, where: Where): string {
  if (!el) return '';
  const html = formattedToHtml(textOf(kid(el, 'text')), el.attrs.format).trim();
  const mine = new Map<string, string>();
  for (const f of kids(el, 'file')) {
    const name = f.attrs.name ?? 'file';
    const path = (f.attrs.path ?? '/').replace(/^\/?/, '/').replace(/\/?$/, '/');
    const id = `f${ctx.files.length + 1}`;
    ctx.files.push({ id, name, mime: mimeOf(name), bytes: Buffer.from(textOf(f).replace(/\s+/g, ''), 'base64') });
    mine.set(`${path}${name}`, id);
  }
  return html.replace(/@@PLUGINFILE@@([^"'\s)<>]*)/g, (whole, rest: string) => {
    let decoded = rest;
    try {
      decoded = decodeURIComponent(rest);
    } catch {
      // A malformed escape: match the link as it is written.
    }
    const path = decoded.startsWith('/') ? decoded : `/${decoded}`;
    const id = mine.get(path);
    if (id) return fileUrl(id);
    ctx.problems.push(problem(where, 'file_missing', 'warning', { name: decoded.replace(/^\//, '') }));
    return whole;
  });
}

const num = (el: El | undefined): number | undefined => {
  const n = Number(textOf(el).trim());
  return el && Number.isFinite(n) ? n : undefined;
};

/** One `<question>` as a raw draft, or null with a problem. */
function readQuestion(q: El, type: string, where: Where, ctx: Context): RawDraft | null {
  const stem = richOf(kid(q, 'questiontext'), ctx, where);
  const general = richOf(kid(q, 'generalfeedback'), ctx, where) || undefined;
  const base = {
    title: textOf(kid(kid(q, 'name'), 'text')).trim(),
    points: num(kid(q, 'defaultgrade')),
    explanation: general,
    where,
  };
  const answers = kids(q, 'answer').map((a) => ({
    html: richOf(a, ctx, where),
    raw: textOf(kid(a, 'text')).trim(),
    fraction: Number(a.attrs.fraction ?? '0'),
    feedback: richOf(kid(a, 'feedback'), ctx, where) || undefined,
    tolerance: Number(textOf(kid(a, 'tolerance')).trim() || '0'),
  }));
  const folded = (labels: string[]) =>
    foldFeedback(
      general,
      answers.map((a, i) => ({ label: labels[i] ?? '', feedback: a.feedback })),
    );
  switch (type) {
    case 'multichoice': {
      const multi = textOf(kid(q, 'single')).trim() === 'false';
      const choices: ChoiceAnswer[] = answers.map((a) => ({ html: a.html, fraction: a.fraction }));
      const feedback = optionFeedback(answers.map((a) => a.feedback));
      return { ...base, feedback, question: choiceQuestion(stem, choices, multi, where, ctx.problems) };
    }
    case 'truefalse': {
      const right = answers.find((a) => a.fraction >= 100);
      const truth = right ? htmlToText(right.raw).toLowerCase() === 'true' : true;
      // The options are true (A) then false (B), whatever the order of the file's answers.
      const said = (value: string) => answers.find((a) => htmlToText(a.raw).toLowerCase() === value)?.feedback;
      const feedback = optionFeedback([said('true'), said('false')]);
      return { ...base, feedback, question: trueFalseQuestion(stem, truth) };
    }
    case 'shortanswer': {
      const variants: string[] = [];
      for (const a of answers) {
        const value = htmlToText(a.raw);
        if (a.fraction >= 100) variants.push(value);
        else if (a.fraction > 0)
          ctx.problems.push(problem(where, 'partial_credit_dropped', 'info', { answer: value, fraction: a.fraction }));
      }
      const explanation = folded(answers.map((a) => htmlToText(a.raw)));
      return {
        ...base,
        explanation,
        question: { kind: 'fill_blank', content: { stem, blanks: 1 }, key: { blanks: [variants] } },
      };
    }
    case 'numerical': {
      const variants: string[] = [];
      for (const a of answers) {
        const value = htmlToText(a.raw);
        if (a.fraction < 100 || value === '*') {
          if (a.fraction > 0)
            ctx.problems.push(
              problem(where, 'partial_credit_dropped', 'info', { answer: value, fraction: a.fraction }),
            );
          continue;
        }
        if (a.tolerance !== 0) {
          ctx.problems.push(problem(where, 'numeric_not_exact', 'warning', { answer: `${value} ± ${a.tolerance}` }));
          return null;
        }
        variants.push(value);
      }
      return { ...base, question: { kind: 'fill_blank', content: { stem, blanks: 1 }, key: { blanks: [variants] } } };
    }
    case 'essay': {
      const rubric = richOf(kid(q, 'graderinfo'), ctx, where);
      return { ...base, question: { kind: 'qa', content: { stem }, key: rubric ? { rubric } : {} } };
    }
    case 'cloze':
    case 'multianswer':
      return cloze(stem, base, where, ctx);
    case 'description':
      ctx.problems.push(problem(where, 'no_counterpart', 'warning', { what: 'A description', what_zh: '说明文字' }));
      return null;
    case 'matching':
    case 'ddmatch':
    case 'randomsamatch':
      ctx.problems.push(
        problem(where, 'no_counterpart', 'warning', { what: 'A matching question', what_zh: '匹配题' }),
      );
      return null;
    default:
      ctx.problems.push(
        problem(where, 'no_counterpart', 'warning', { what: `A "${type}" question`, what_zh: `“${type}”类型的题目` }),
      );
      return null;
  }
}

const CLOZE = /\{(\d*):([A-Z_]+):((?:\\.|[^\\}])*)\}/g;

/** Splits at unescaped `sep`. */
function splitUnescaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      cur += c + text[i + 1];
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
const unescapeCloze = (s: string) => s.replace(/\\(.)/g, '$1');

/** A cloze (embedded answers) question: its gaps become blanks, or sub-questions of a reading question. */
function cloze(stem: string, base: Omit<RawDraft, 'question'>, where: Where, ctx: Context): RawDraft | null {
  const parts: string[] = [];
  const gaps: Gap[] = [];
  let last = 0;
  for (const m of stem.matchAll(CLOZE)) {
    parts.push(stem.slice(last, m.index));
    last = m.index + m[0].length;
    const points = m[1] ? Number(m[1]) : 1;
    const code = m[2]!;
    const answers = splitUnescaped(m[3]!, '~').map((a) => {
      const [body = '', feedback] = splitUnescaped(a, '#');
      const w = /^(=|%(-?\d+(?:\.\d+)?)%)?(.*)$/s.exec(body)!;
      return {
        fraction: w[1] === '=' ? 100 : w[2] !== undefined ? Number(w[2]) : 0,
        text: unescapeCloze(w[3]!).trim(),
        feedback,
      };
    });
    if (/^(SHORTANSWER|SA|MW|SHORTANSWER_C|SAC|MWC|NUMERICAL|NM)$/.test(code)) {
      const variants: string[] = [];
      for (const a of answers) {
        if (a.fraction >= 100) {
          if (/^(NUMERICAL|NM)$/.test(code) && /:(?!0*(\.0*)?$)/.test(a.text)) {
            ctx.problems.push(problem(where, 'numeric_not_exact', 'warning', { answer: a.text }));
            return null;
          }
          variants.push(/^(NUMERICAL|NM)$/.test(code) ? a.text.replace(/:0*(\.0*)?$/, '') : a.text);
        } else if (a.fraction > 0)
          ctx.problems.push(problem(where, 'partial_credit_dropped', 'info', { answer: a.text, fraction: a.fraction }));
      }
      gaps.push({ type: 'blank', variants, points });
    } else if (
      /^(MULTICHOICE|MC|MULTICHOICE_[VHS]|MC[VHS]|MULTICHOICE_[VH]S|MC[VH]S|MULTIRESPONSE|MR|MULTIRESPONSE_[HS]|MR[HS]|MULTIRESPONSE_HS|MRHS)$/.test(
        code,
      )
    ) {
      gaps.push({
        type: 'choice',
        multi: /^(MULTIRESPONSE|MR)/.test(code),
        points,
        answers: answers.map((a) => ({ html: a.text, fraction: a.fraction, feedback: a.feedback })),
      });
    } else {
      ctx.problems.push(
        problem(where, 'no_counterpart', 'warning', {
          what: `The embedded answer type ${code}`,
          what_zh: `嵌入答案类型 ${code}`,
        }),
      );
      return null;
    }
  }
  parts.push(stem.slice(last));
  if (gaps.length === 0) {
    ctx.problems.push(
      problem(where, 'no_counterpart', 'warning', { what: 'A cloze question with no gaps', what_zh: '没有空的完形题' }),
    );
    return null;
  }
  const question = gappedQuestion(parts, gaps, where, ctx.problems);
  const [kind, kind_zh] =
    question.kind === 'reading'
      ? ['reading', '阅读理解题']
      : question.kind === 'fill_blank'
        ? ['fill-in-blank', '填空题']
        : ['choice', '选择题'];
  ctx.problems.push(problem(where, 'cloze_converted', 'info', { kind, kind_zh, count: gaps.length }));
  return { ...base, feedback: gapFeedback(question, gaps), question };
}
