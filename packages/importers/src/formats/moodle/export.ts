/** Drafts to Moodle XML (the format Moodle's question bank imports). */
import type { QuestionOf } from '@examhall/contract';
import { round5 } from '../../mapping.js';
import { BLANK, htmlToText } from '../../richText.js';
import type { Draft, Problem } from '../../types.js';
import { cdata, escapeXml } from '../../xml.js';
import { noSuchType, notExported, writeKind, type KindWriters } from '../kinds.js';

const rich = (tag: string, html: string, extra = '') =>
  `<${tag} format="html"${extra}><text>${cdata(html)}</text></${tag}>`;
/** An answer with its feedback (Moodle shows it to whoever chose the answer). */
const answer = (fraction: number, html: string, feedback?: string) =>
  `    <answer format="html" fraction="${round5(fraction)}"><text>${cdata(html)}</text>${
    feedback ? rich('feedback', feedback) : ''
  }</answer>\n`;
/** A draft's feedback for an option. */
const fb = (d: Draft, id: string): string | undefined => d.feedback?.[id];
/** Escapes text inside a cloze answer. */
const clozeText = (s: string) => s.replace(/[\\}#~/"]/g, (c) => `\\${c}`);

/** Writes drafts as Moodle XML; kinds Moodle cannot carry are left out with a problem each. */
export function exportMoodle(drafts: Draft[]): { text: string; problems: Problem[] } {
  const problems: Problem[] = [];
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n';
  let folder: string | null = null;
  drafts.forEach((d, i) => {
    const body = writeKind(MOODLE_KINDS, d, noSuchType('Moodle XML'));
    if ('why' in body) {
      problems.push(notExported(i, d.question.kind, 'Moodle XML', body.why));
      return;
    }
    const path = d.folder.map((f) => f.replace(/\//g, '//')).join('/');
    if (path !== folder) {
      out += `  <question type="category">\n    <category><text>${escapeXml(`$course$/top${path ? `/${path}` : ''}`)}</text></category>\n  </question>\n`;
      folder = path;
    }
    const name = d.title ?? (htmlToText(d.question.content.stem).slice(0, 60) || `question ${i + 1}`);
    out += `  <question type="${body.type}">\n`;
    out += `    <name><text>${escapeXml(name)}</text></name>\n`;
    out += `    ${rich('questiontext', body.stem)}\n`;
    out += `    ${rich('generalfeedback', d.explanation ?? '')}\n`;
    out += `    <defaultgrade>${d.points ?? 1}</defaultgrade>\n`;
    out += body.rest;
    if (d.tags.length > 0)
      out += `    <tags>${d.tags.map((t) => `<tag><text>${escapeXml(t)}</text></tag>`).join('')}</tags>\n`;
    out += '  </question>\n';
  });
  return { text: `${out}</quiz>\n`, problems };
}

/** What Moodle XML holds of a question: its type, the question text and the type's own elements. */
interface MoodleQuestion {
  type: string;
  stem: string;
  rest: string;
}

/** Multiple and indefinite choice: each right option an equal share, each wrong one -100%. */
const manyRight = (q: QuestionOf<'multiple' | 'indefinite'>, d: Draft): MoodleQuestion => {
  const right = new Set(q.key.options);
  return {
    type: 'multichoice',
    stem: q.content.stem,
    rest:
      '    <single>false</single>\n    <shuffleanswers>0</shuffleanswers>\n' +
      q.content.options.map((o) => answer(right.has(o.id) ? 100 / right.size : -100, o.content, fb(d, o.id))).join(''),
  };
};

/** Each kind Moodle XML carries, as Moodle's question; a kind left out has no Moodle question type. */
const MOODLE_KINDS: KindWriters<MoodleQuestion> = {
  single: (q, d) => ({
    type: 'multichoice',
    stem: q.content.stem,
    rest:
      '    <single>true</single>\n    <shuffleanswers>0</shuffleanswers>\n' +
      q.content.options.map((o) => answer(o.id === q.key.option ? 100 : 0, o.content, fb(d, o.id))).join(''),
  }),
  multiple: manyRight,
  indefinite: manyRight,
  gradient: (q, d) => {
    const best = Math.max(...Object.values(q.key.scores));
    return {
      type: 'multichoice',
      stem: q.content.stem,
      rest:
        '    <single>true</single>\n    <shuffleanswers>0</shuffleanswers>\n' +
        q.content.options.map((o) => answer(((q.key.scores[o.id] ?? 0) / best) * 100, o.content, fb(d, o.id))).join(''),
    };
  },
  true_false: (q, d) => {
    const [yes, no] = [q.content.options[0]!.id, q.content.options[1]!.id];
    const truth = q.key.option === yes;
    return {
      type: 'truefalse',
      stem: q.content.stem,
      rest: answer(truth ? 100 : 0, 'true', fb(d, yes)) + answer(truth ? 0 : 100, 'false', fb(d, no)),
    };
  },
  fill_blank: (q) => {
    if (q.content.blanks === 1)
      return {
        type: 'shortanswer',
        stem: q.content.stem,
        rest: '    <usecase>0</usecase>\n' + q.key.blanks[0]!.map((v) => answer(100, escapeHtmlText(v))).join(''),
      };
    const parts = q.content.stem.split(BLANK);
    if (parts.length - 1 !== q.content.blanks)
      return {
        why: `the stem marks ${parts.length - 1} blank(s) with ${BLANK} but the question has ${q.content.blanks}`,
      };
    const stem = parts.reduce(
      (s, p, i) => `${s}{1:SHORTANSWER:${q.key.blanks[i - 1]!.map((v) => `=${clozeText(v)}`).join('~')}}${p}`,
    );
    return { type: 'cloze', stem, rest: '' };
  },
  qa: (q) => ({
    type: 'essay',
    stem: q.content.stem,
    rest: `    <responseformat>editor</responseformat>\n    ${rich('graderinfo', q.key.rubric ?? '')}\n`,
  }),
};

/** A short answer is text; inside `<answer format="html">` it is escaped so that it reads back the same. */
function escapeHtmlText(v: string): string {
  return escapeXml(v);
}
