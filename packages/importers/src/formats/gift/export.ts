/** Drafts to GIFT. Every text is written as `[html]`, so HTML comes back unchanged. */
import type { QuestionOf } from '@examhall/contract';
import { BLANK } from '../../richText.js';
import { round5 } from '../../mapping.js';
import type { Draft, Problem } from '../../types.js';
import { noSuchType, notExported, writeKind, type KindWriters } from '../kinds.js';

/** Escapes GIFT's special characters; a line break becomes `\n`, so no line can start a comment or end a question. */
export function escapeGift(text: string): string {
  return text.replace(/[\\~=#{}:]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}

const weight = (n: number) => `%${round5(n)}%`;

/** Writes drafts as GIFT; kinds GIFT cannot carry are left out with a problem each. */
export function exportGift(drafts: Draft[]): { text: string; problems: Problem[] } {
  const problems: Problem[] = [];
  const out: string[] = [];
  let folder: string | null = null;
  drafts.forEach((d, i) => {
    const answers = writeKind(GIFT_KINDS, d, noSuchType('GIFT'));
    if (typeof answers !== 'string') {
      problems.push(notExported(i, d.question.kind, 'GIFT', answers.why));
      return;
    }
    const path = d.folder.map((f) => f.replace(/\//g, '//')).join('/');
    if (path !== (folder ?? '')) {
      out.push(`$CATEGORY: $course$/top${path ? `/${path}` : ''}\n`);
      folder = path;
    }
    const lines: string[] = [];
    if (d.tags.length > 0) lines.push(`// ${d.tags.map((t) => `[tag:${t.replace(/]/g, '')}]`).join(' ')}`);
    const title = d.title ? `::${escapeGift(d.title)}::` : '';
    const general = d.explanation ? `\n\t####[html]${escapeGift(d.explanation)}` : '';
    const { before, after } = stemParts(d);
    lines.push(`${title}[html]${escapeGift(before)}{${answers}${general}\n}${escapeGift(after)}`);
    out.push(`${lines.join('\n')}\n`);
  });
  return { text: out.join('\n'), problems };
}

/** The stem around the answer block: a fill-in blank's ___ is where the block goes. */
function stemParts(d: Draft): { before: string; after: string } {
  const stem = d.question.content.stem;
  if (d.question.kind !== 'fill_blank') return { before: `${stem} `, after: '' };
  const at = stem.indexOf(BLANK);
  if (at < 0) return { before: `${stem} `, after: '' };
  return { before: stem.slice(0, at), after: stem.slice(at + BLANK.length) };
}

/** An option's line, with its feedback (`#...`) when the draft has one for it. */
const opt = (mark: string, html: string, feedback?: string) =>
  `\n\t${mark}[html]${escapeGift(html)}${feedback ? `#[html]${escapeGift(feedback)}` : ''}`;

/** A draft's feedback for an option. */
const fb = (d: Draft, id: string): string | undefined => d.feedback?.[id];

/** Multiple and indefinite choice: each right option an equal share, each wrong one -100%. */
const manyRight = (q: QuestionOf<'multiple' | 'indefinite'>, d: Draft): string => {
  const right = new Set(q.key.options);
  return q.content.options
    .map((o) => opt(`~${right.has(o.id) ? weight(100 / right.size) : '%-100%'}`, o.content, fb(d, o.id)))
    .join('');
};

/** The answer block's inside of each kind GIFT carries; a kind left out has no GIFT question type. */
const GIFT_KINDS: KindWriters<string> = {
  single: (q, d) =>
    q.content.options.map((o) => opt(o.id === q.key.option ? '=' : '~', o.content, fb(d, o.id))).join(''),
  multiple: manyRight,
  indefinite: manyRight,
  gradient: (q, d) => {
    const best = Math.max(...Object.values(q.key.scores));
    const top = q.content.options.find((o) => q.key.scores[o.id] === best)!;
    return q.content.options
      .map((o) =>
        o === top
          ? opt('=', o.content, fb(d, o.id))
          : opt(`~${weight(((q.key.scores[o.id] ?? 0) / best) * 100)}`, o.content, fb(d, o.id)),
      )
      .join('');
  },
  true_false: (q, d) => {
    const [yes, no] = [q.content.options[0]!.id, q.content.options[1]!.id];
    const truth = q.key.option === yes;
    // `{TRUE#wrong#right}`: the first feedback is the wrong option's, the second the right one's.
    const [wrong, right] = truth ? [fb(d, no), fb(d, yes)] : [fb(d, yes), fb(d, no)];
    const tail = wrong || right ? `#[html]${escapeGift(wrong ?? '')}#[html]${escapeGift(right ?? '')}` : '';
    return `${truth ? 'TRUE' : 'FALSE'}${tail}`;
  },
  fill_blank: (q) => {
    if (q.content.blanks !== 1) return { why: 'GIFT has one answer block per question (one blank)' };
    return q.key.blanks[0]!.map((v) => `\n\t=${escapeGift(v)}`).join('');
  },
  qa: () => '',
};
