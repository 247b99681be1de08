/** Problem zips (our own layout: problem.json, statement, samples/, cases/, solution, starter/) to questions. */
import type { LanguageId } from '@examhall/contract';
import { caseLimitProblems } from '../../cases.js';
import { finishDraft } from '../../draft.js';
import { languageOf } from '../../languages.js';
import { problem, syntaxProblem } from '../../problems.js';
import { markdownToHtml } from '../../richText.js';
import type { Draft, EmbeddedFile, ImportLimits, Problem, Where } from '../../types.js';
import { unzipSafely } from '../../zip.js';
import { naturalOrder, type ProblemJson } from './layout.js';

const utf8 = new TextDecoder('utf-8');

/** Reads a problem zip: `problem.json` at the top (one problem) or in each top folder (one problem each). */
export function importProblemZip(
  bytes: Uint8Array,
  limits: ImportLimits,
): { questions: Draft[]; problems: Problem[]; files: EmbeddedFile[] } {
  const entries = unzipSafely(bytes, limits, {});
  const problems: Problem[] = [];
  const questions: Draft[] = [];
  const roots = [...entries.keys()]
    .filter((p) => /^([^/]+\/)?problem\.json$/.test(p))
    .map((p) => p.slice(0, -'problem.json'.length))
    .sort(naturalOrder);
  if (roots.length === 0) problems.push(problem({}, 'package_file_missing', 'error', { name: 'problem.json' }));
  for (const root of roots) {
    if (questions.length >= limits.questions) {
      problems.push(
        problem({ file: `${root}problem.json` }, 'too_many_questions', 'error', { limit: limits.questions }),
      );
      break;
    }
    const draft = readProblem(root, entries, problems);
    if (draft) questions.push(draft);
  }
  return { questions, problems, files: [] };
}

/** Text files under a folder of the problem, by name without the folder. */
function under(entries: Map<string, Uint8Array>, folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, data] of entries)
    if (path.startsWith(folder) && !path.slice(folder.length).includes('/'))
      out.set(path.slice(folder.length), utf8.decode(data));
  return out;
}

/** `<name>.in` + `<name>.out` pairs of a folder, in natural order; a file without its partner is an error. */
function casePairs(
  files: Map<string, string>,
  folder: string,
  errors: Problem[],
): Map<string, { input: string; output: string }> {
  const out = new Map<string, { input: string; output: string }>();
  const names = [...files.keys()].filter((n) => /\.(in|out|ans)$/.test(n)).sort(naturalOrder);
  for (const n of names) {
    const base = n.replace(/\.(in|out|ans)$/, '');
    if (out.has(base)) continue;
    const input = files.get(`${base}.in`);
    const output = files.get(`${base}.out`) ?? files.get(`${base}.ans`);
    if (input === undefined || output === undefined) {
      errors.push(
        problem({ file: `${folder}${n}` }, 'case_unpaired', 'error', {
          name: n,
          other: input === undefined ? `${base}.in` : `${base}.out`,
        }),
      );
      continue;
    }
    out.set(base, { input, output });
  }
  return out;
}

/** One problem from its folder, or null with its problems. */
function readProblem(root: string, entries: Map<string, Uint8Array>, problems: Problem[]): Draft | null {
  const where: Where = { file: `${root}problem.json` };
  const errors: Problem[] = [];
  let meta: ProblemJson;
  try {
    const parsed: unknown = JSON.parse(utf8.decode(entries.get(`${root}problem.json`)!));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    meta = parsed as ProblemJson;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    problems.push(
      syntaxProblem(where, `problem.json is not valid JSON: ${detail}`, `problem.json 不是有效的 JSON：${detail}`),
    );
    return null;
  }
  const text = (name: string) => {
    const data = entries.get(`${root}${name}`);
    return data === undefined ? undefined : utf8.decode(data);
  };
  const html = text('statement.html');
  const md = text('statement.md');
  const stem = html ?? (md !== undefined ? markdownToHtml(md) : undefined);
  if (stem === undefined)
    errors.push(
      problem({ file: `${root}statement.html` }, 'package_file_missing', 'error', {
        name: `${root}statement.html / statement.md`,
      }),
    );

  const samples = [...casePairs(under(entries, `${root}samples/`), `${root}samples/`, errors).values()];
  const found = casePairs(under(entries, `${root}cases/`), `${root}cases/`, errors);
  const order = [...(Array.isArray(meta.cases) ? meta.cases.map(String) : []), ...found.keys()];
  const cases = [...new Set(order)].flatMap((name) => {
    const c = found.get(name);
    if (!c) {
      errors.push(
        problem({ file: `${root}cases/${name}.in` }, 'package_file_missing', 'error', {
          name: `${root}cases/${name}.in`,
        }),
      );
      return [];
    }
    return [{ ...c, name }];
  });
  const placeIn = (folder: string) => (name: string | null) => ({
    file: name === null ? folder : `${folder}${name}.in`,
  });
  errors.push(...caseLimitProblems(samples, 'samples', placeIn(`${root}samples/`)));
  errors.push(...caseLimitProblems(cases, 'cases', placeIn(`${root}cases/`)));

  const language = (name: string, at: Where): LanguageId | null => {
    const id = languageOf(name);
    if (!id)
      errors.push(
        problem(at, 'language_unknown', 'error', {
          language: name,
          detail: 'use a judge language id such as cpp or python',
          detail_zh: '请使用评测机的语言标识，如 cpp、python',
        }),
      );
    return id;
  };
  const languages: LanguageId[] = [];
  for (const name of Array.isArray(meta.languages) ? meta.languages : []) {
    const id = language(String(name), where);
    if (id && !languages.includes(id)) languages.push(id);
  }
  const starter: Partial<Record<LanguageId, string>> = {};
  for (const [name, source] of under(entries, `${root}starter/`)) {
    const id = language(name.replace(/\.[^.]+$/, ''), { file: `${root}starter/${name}` });
    if (id) starter[id] = source;
  }
  let reference: { language: LanguageId; source: string } | undefined;
  const refFile =
    meta.reference?.file ??
    [...entries.keys()]
      .filter((p) => p.startsWith(root))
      .map((p) => p.slice(root.length))
      .find((p) => /^solution\.[^/]+$/.test(p));
  if (refFile) {
    const source = text(refFile);
    const at = { file: `${root}${refFile}` };
    if (source === undefined) errors.push(problem(at, 'package_file_missing', 'error', { name: `${root}${refFile}` }));
    else {
      const id = language(meta.reference?.language ?? refFile.replace(/^.*\./, ''), at);
      if (id) reference = { language: id, source };
    }
  }
  let checker: unknown = meta.checker ?? 'default';
  if (meta.checker && typeof meta.checker === 'object') {
    const source = text(meta.checker.file);
    const at = { file: `${root}${meta.checker.file}` };
    if (source === undefined)
      errors.push(problem(at, 'package_file_missing', 'error', { name: `${root}${meta.checker.file}` }));
    checker = { language: language(meta.checker.language, at) ?? '', source: source ?? '' };
  }
  if (errors.length) {
    problems.push(...errors);
    return null;
  }
  const content: Record<string, unknown> = { stem, languages, samples };
  if (Object.keys(starter).length) content.starter = starter;
  if (meta.time_limit_ms !== undefined) content.time_limit_ms = meta.time_limit_ms;
  if (meta.memory_limit_mb !== undefined) content.memory_limit_mb = meta.memory_limit_mb;
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return finishDraft(
    {
      question: { kind: 'programming', content, key: { checker, cases, ...(reference ? { reference } : {}) } },
      ...(typeof meta.title === 'string' ? { title: meta.title } : {}),
      ...(typeof meta.explanation === 'string' ? { explanation: meta.explanation } : {}),
      ...(typeof meta.points === 'number' ? { points: meta.points } : {}),
      ...(typeof meta.difficulty === 'number' ? { difficulty: meta.difficulty } : {}),
      tags: strings(meta.tags),
      knowledge_points: strings(meta.knowledge_points),
      folder: strings(meta.folder),
      where,
    },
    problems,
  );
}
