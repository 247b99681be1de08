/** Programming questions to problem zips (the layout of layout.ts; one folder per problem when there are several). */
import { zipSync } from 'fflate';
import { SOURCE_EXTENSION } from '../../languages.js';
import type { Draft, Problem } from '../../types.js';
import { notExported } from '../kinds.js';
import type { ProblemJson } from './layout.js';

const encode = (s: string) => new TextEncoder().encode(s);
const SAFE_NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

/** Writes programming drafts as a problem zip; other kinds are left out with a warning each. */
export function exportProblemZip(drafts: Draft[]): { bytes: Uint8Array; problems: Problem[] } {
  const problems: Problem[] = [];
  const files: Record<string, Uint8Array> = {};
  const programs = drafts.flatMap((d, i) => {
    if (d.question.kind === 'programming') return [{ d, q: d.question }];
    problems.push(notExported(i, d.question.kind, 'problem zip', 'a problem zip carries programming problems only'));
    return [];
  });
  programs.forEach(({ d, q }, i) => {
    const root = programs.length === 1 ? '' : `${String(i + 1).padStart(3, '0')}/`;
    const used = new Set<string>();
    const caseNames = q.key.cases.map((c, k) => {
      const wanted =
        c.name !== undefined && SAFE_NAME.test(c.name) && !/\.(in|out|ans)$/.test(c.name) ? c.name : String(k + 1);
      const name = used.has(wanted) ? `${k + 1}-${wanted}` : wanted;
      used.add(name);
      return name;
    });
    const meta: ProblemJson = {
      ...(d.title !== undefined ? { title: d.title } : {}),
      time_limit_ms: q.content.time_limit_ms,
      memory_limit_mb: q.content.memory_limit_mb,
      languages: q.content.languages,
      cases: caseNames,
      ...(d.points !== undefined ? { points: d.points } : {}),
      ...(d.difficulty !== undefined ? { difficulty: d.difficulty } : {}),
      tags: d.tags,
      knowledge_points: d.knowledge_points,
      folder: d.folder,
      ...(d.explanation !== undefined ? { explanation: d.explanation } : {}),
    };
    const checker = q.key.checker;
    if (typeof checker === 'string') meta.checker = checker;
    else {
      const file = `checker.${SOURCE_EXTENSION[checker.language]}`;
      meta.checker = { language: checker.language, file };
      files[`${root}${file}`] = encode(checker.source);
    }
    if (q.key.reference) {
      const file = `solution.${SOURCE_EXTENSION[q.key.reference.language]}`;
      meta.reference = { file, language: q.key.reference.language };
      files[`${root}${file}`] = encode(q.key.reference.source);
    }
    files[`${root}problem.json`] = encode(`${JSON.stringify(meta, null, 2)}\n`);
    files[`${root}statement.html`] = encode(q.content.stem);
    q.content.samples.forEach((s, k) => {
      files[`${root}samples/${k + 1}.in`] = encode(s.input);
      files[`${root}samples/${k + 1}.out`] = encode(s.output);
    });
    q.key.cases.forEach((c, k) => {
      files[`${root}cases/${caseNames[k]}.in`] = encode(c.input);
      files[`${root}cases/${caseNames[k]}.out`] = encode(c.output);
    });
    for (const [id, source] of Object.entries(q.content.starter ?? {}))
      files[`${root}starter/${id}.${SOURCE_EXTENSION[id as keyof typeof SOURCE_EXTENSION]}`] = encode(source);
  });
  return { bytes: zipSync(files), problems };
}
