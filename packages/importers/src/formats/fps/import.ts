/** FreeProblemSet XML (what HUSTOJ and other Chinese online judges exchange) to programming questions. */
import { CODE_LIMITS, LANGUAGE_IDS, type LanguageId } from '@examhall/contract';
import { caseLimitProblems } from '../../cases.js';
import { finishDraft } from '../../draft.js';
import { languageOf } from '../../languages.js';
import { problem } from '../../problems.js';
import { fileUrl, mimeOf } from '../../richText.js';
import type { Draft, EmbeddedFile, ImportLimits, Problem, Where } from '../../types.js';
import { kid, kids, parseXml, textOf, type El } from '../../xml.js';

/** Languages offered when FPS names none (it never does): these, plus the reference solution's. */
export const FPS_DEFAULT_LANGUAGES: readonly LanguageId[] = ['c', 'cpp', 'java', 'python'];

/** The languages an FPS problem offers: the defaults and the reference solution's, in the contract's order. */
export function fpsLanguages(reference: LanguageId | undefined): LanguageId[] {
  return LANGUAGE_IDS.filter((id) => FPS_DEFAULT_LANGUAGES.includes(id) || id === reference);
}

/** A limit brought within the contract's bounds, with a note when it moved. */
function bounded(
  value: number,
  range: { min: number; max: number; default: number },
  what: [string, string],
  where: Where,
  problems: Problem[],
): number {
  if (!Number.isFinite(value) || value <= 0) return range.default;
  const result = Math.min(range.max, Math.max(range.min, Math.round(value)));
  if (result !== Math.round(value))
    problems.push(
      problem(where, 'limit_adjusted', 'info', {
        what: what[0],
        what_zh: what[1],
        value: Math.round(value),
        min: range.min,
        max: range.max,
        result,
      }),
    );
  return result;
}

/** Pairs `<x_input>` with `<x_output>` elements in order; a count mismatch is a problem. */
function pairs(item: El, prefix: string, where: Where, errors: Problem[]): { input: string; output: string }[] {
  const ins = kids(item, `${prefix}_input`);
  const outs = kids(item, `${prefix}_output`);
  if (ins.length !== outs.length)
    errors.push(
      problem(where, 'case_unpaired', 'error', {
        name: `${prefix}_input ×${ins.length}`,
        other: `${prefix}_output (×${outs.length})`,
      }),
    );
  return ins.slice(0, outs.length).map((el, i) => ({ input: textOf(el), output: textOf(outs[i]) }));
}

/** Reads an FPS file: each `<item>` becomes a programming question, or located problems and nothing. */
export function importFps(
  text: string,
  limits: ImportLimits,
): { questions: Draft[]; problems: Problem[]; files: EmbeddedFile[] } {
  const problems: Problem[] = [];
  const files: EmbeddedFile[] = [];
  const questions: Draft[] = [];
  const root = parseXml(text, {}, problems);
  if (!root) return { questions, problems, files };
  if (root.name !== 'fps') {
    problems.push(
      problem({ line: root.line, element: root.name }, 'xml_unexpected_root', 'error', {
        expected: 'fps',
        found: root.name,
      }),
    );
    return { questions, problems, files };
  }
  kids(root, 'item').forEach((item, i) => {
    const where: Where = { line: item.line, element: `item[${i + 1}]` };
    if (questions.length >= limits.questions) {
      if (questions.length === limits.questions)
        problems.push(problem(where, 'too_many_questions', 'error', { limit: limits.questions }));
      return;
    }
    const errors: Problem[] = [];
    const notes: Problem[] = [];
    const spj = kid(item, 'spj');
    if (spj && textOf(spj).trim() !== '') {
      problems.push(
        problem({ line: spj.line, element: `item[${i + 1}]/spj` }, 'no_counterpart', 'warning', {
          what: 'a special judge (spj) program',
          what_zh: '特判程序（spj）',
        }),
      );
      return;
    }
    // Pictures travel as <img><src>path</src><base64>…</base64></img>; the text links them by path.
    const links = new Map<string, string>();
    for (const img of kids(item, 'img')) {
      const src = textOf(kid(img, 'src')).trim();
      const data = textOf(kid(img, 'base64')).replace(/\s+/g, '');
      if (!src || !data) continue;
      const id = `f${files.length + 1}`;
      const name = src.split('/').pop() || id;
      files.push({ id, name, mime: mimeOf(name), bytes: Buffer.from(data, 'base64') });
      links.set(src, id);
    }
    const html = (name: string) => {
      let out = textOf(kid(item, name)).trim();
      for (const [src, id] of links) out = out.split(src).join(fileUrl(id));
      return out;
    };
    const section = (name: string, heading: string) => {
      const body = html(name);
      return body ? `<h3>${heading}</h3>${body}` : '';
    };
    const stem =
      html('description') +
      section('input', '输入 Input') +
      section('output', '输出 Output') +
      section('hint', '提示 Hint');

    const samples = pairs(item, 'sample', where, errors);
    const cases = pairs(item, 'test', where, errors).map((c, k) => ({ ...c, name: String(k + 1) }));
    errors.push(...caseLimitProblems(samples, 'samples', () => where));
    errors.push(...caseLimitProblems(cases, 'cases', () => where));

    const time = kid(item, 'time_limit');
    const memory = kid(item, 'memory_limit');
    const timeUnit = (time?.attrs.unit ?? 's').toLowerCase();
    const memoryUnit = (memory?.attrs.unit ?? 'mb').toLowerCase();
    const timeValue = Number(textOf(time).trim()) * (timeUnit === 'ms' ? 1 : 1000);
    const memoryValue = Number(textOf(memory).trim()) / (memoryUnit === 'kb' ? 1024 : 1);
    const time_limit_ms = time
      ? bounded(timeValue, CODE_LIMITS.timeMs, ['time limit (ms)', '时间限制（毫秒）'], where, notes)
      : CODE_LIMITS.timeMs.default;
    const memory_limit_mb = memory
      ? bounded(memoryValue, CODE_LIMITS.memoryMb, ['memory limit (MB)', '内存限制（MB）'], where, notes)
      : CODE_LIMITS.memoryMb.default;

    let reference: { language: LanguageId; source: string } | undefined;
    for (const s of kids(item, 'solution')) {
      const name = s.attrs.language ?? '';
      const language = languageOf(name);
      if (!language)
        notes.push(
          problem({ line: s.line, element: `item[${i + 1}]/solution` }, 'language_unknown', 'info', {
            language: name,
            detail: 'this solution was left out',
            detail_zh: '该参考程序未导入',
          }),
        );
      else if (!reference && textOf(s) !== '') reference = { language, source: textOf(s) };
    }
    if (errors.length) {
      problems.push(...errors);
      return;
    }
    problems.push(...notes);
    const source = textOf(kid(item, 'source'))
      .split(/[,，;；]/)
      .map((t) => t.trim())
      .filter(Boolean);
    const draft = finishDraft(
      {
        question: {
          kind: 'programming',
          content: { stem, languages: fpsLanguages(reference?.language), samples, time_limit_ms, memory_limit_mb },
          key: { checker: 'default', cases, ...(reference ? { reference } : {}) },
        },
        title: textOf(kid(item, 'title')),
        tags: source,
        where,
      },
      problems,
    );
    if (draft) questions.push(draft);
  });
  return { questions, problems, files };
}
