/** QTI 2.1 and 3.0 items, alone or in a content package, to drafts. */
import { finishDraft, type RawDraft } from '../../draft.js';
import {
  choiceQuestion,
  gapFeedback,
  gappedQuestion,
  optionFeedback,
  type ChoiceAnswer,
  type Gap,
} from '../../mapping.js';
import { problem } from '../../problems.js';
import { fileUrl, mimeOf } from '../../richText.js';
import { decodeText } from '../../text.js';
import type { Draft, EmbeddedFile, ImportLimits, Problem, Where } from '../../types.js';
import { findAll, innerXml, isEl, kid, kids, parseXml, textOf, type El } from '../../xml.js';
import { isZip, safePath, unzipSafely } from '../../zip.js';

/** What one import collects. */
interface Context {
  problems: Problem[];
  files: EmbeddedFile[];
  /** The package's files by path (empty for a lone item). */
  pkg: Map<string, Uint8Array>;
  /** Files already extracted, by package path. */
  linked: Map<string, string>;
}

/** Reads a QTI item (XML) or a content package (zip with imsmanifest.xml). */
export function importQti(
  name: string,
  bytes: Uint8Array,
  limits: ImportLimits,
): { questions: Draft[]; problems: Problem[]; files: EmbeddedFile[] } {
  const ctx: Context = { problems: [], files: [], pkg: new Map(), linked: new Map() };
  const questions: Draft[] = [];
  const add = (raw: RawDraft | null) => {
    if (!raw) return;
    if (questions.length >= limits.questions) {
      if (questions.length === limits.questions)
        ctx.problems.push(problem(raw.where, 'too_many_questions', 'error', { limit: limits.questions }));
      return;
    }
    const draft = finishDraft(raw, ctx.problems);
    if (draft) questions.push(draft);
  };
  if (!isZip(bytes)) {
    const root = parseFile(bytes, { file: name }, ctx);
    if (!root) return { questions, problems: ctx.problems, files: ctx.files };
    if (root.name !== 'assessmentItem') {
      ctx.problems.push(
        problem({ file: name, line: root.line }, 'xml_unexpected_root', 'error', {
          expected: 'assessmentItem',
          found: root.name,
        }),
      );
      return { questions, problems: ctx.problems, files: ctx.files };
    }
    add(readItem(root, name, ctx));
    return { questions, problems: ctx.problems, files: ctx.files };
  }
  ctx.pkg = unzipSafely(bytes, limits, { file: name });
  const manifestPath = [...ctx.pkg.keys()].find((p) => p.toLowerCase() === 'imsmanifest.xml');
  if (!manifestPath) {
    ctx.problems.push(problem({ file: name }, 'manifest_missing', 'error'));
    return { questions, problems: ctx.problems, files: ctx.files };
  }
  const manifest = parseFile(ctx.pkg.get(manifestPath)!, { file: manifestPath }, ctx);
  if (!manifest) return { questions, problems: ctx.problems, files: ctx.files };
  for (const res of findAll(manifest, (e) => e.name === 'resource')) {
    if (!/^imsqti_item_xmlv(2p\d|3p\d)/.test(res.attrs.type ?? '')) continue;
    const href = res.attrs.href ?? kid(res, 'file')?.attrs.href ?? '';
    const where = {
      file: manifestPath,
      line: res.line,
      element: `resource identifier="${res.attrs.identifier ?? ''}"`,
    };
    const path = safePath(`${res.attrs.base ?? ''}${decodeURI(href)}`);
    if (path === null || !href) {
      ctx.problems.push(problem(where, 'zip_path_escape', 'error', { path: href }));
      continue;
    }
    const file = ctx.pkg.get(path);
    if (!file) {
      ctx.problems.push(problem(where, 'manifest_file_missing', 'warning', { href }));
      continue;
    }
    const root = parseFile(file, { file: path }, ctx);
    if (!root) continue;
    if (root.name !== 'assessmentItem') {
      ctx.problems.push(
        problem({ file: path, line: root.line }, 'xml_unexpected_root', 'error', {
          expected: 'assessmentItem',
          found: root.name,
        }),
      );
      continue;
    }
    add(readItem(root, path, ctx));
  }
  return { questions, problems: ctx.problems, files: ctx.files };
}

/** Decodes (any declared encoding) and parses one XML file, with QTI 3's names brought to QTI 2's. */
function parseFile(bytes: Uint8Array, where: Where, ctx: Context): El | null {
  const root = parseXml(decodeText(bytes, where), where, ctx.problems);
  return root ? qti2Names(root) : null;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** QTI 3 writes `qti-choice-interaction response-identifier=...`; QTI 2 `choiceInteraction responseIdentifier=...`. */
function qti2Names(el: El): El {
  if (el.name.startsWith('qti-')) {
    el.name = camel(el.name.slice(4));
    el.attrs = Object.fromEntries(Object.entries(el.attrs).map(([k, v]) => [camel(k), v]));
  }
  for (const c of el.children) if (isEl(c)) qti2Names(c);
  return el;
}

/** A response declaration: its right values and its mapping. */
interface Declaration {
  cardinality: string;
  correct: string[];
  mapping: { key: string; value: number }[];
}

function declarations(item: El): Map<string, Declaration> {
  const out = new Map<string, Declaration>();
  for (const d of kids(item, 'responseDeclaration')) {
    out.set(d.attrs.identifier ?? '', {
      cardinality: d.attrs.cardinality ?? 'single',
      correct: kids(kid(d, 'correctResponse') ?? d, 'value').map((v) => textOf(v).trim()),
      mapping: kids(kid(d, 'mapping') ?? d, 'mapEntry').map((m) => ({
        key: m.attrs.mapKey ?? '',
        value: Number(m.attrs.mappedValue ?? '0'),
      })),
    });
  }
  return out;
}

const SUPPORTED = new Set([
  'choiceInteraction',
  'textEntryInteraction',
  'inlineChoiceInteraction',
  'extendedTextInteraction',
]);

/** One item as a raw draft, or null with a problem. */
function readItem(item: El, file: string, ctx: Context): RawDraft | null {
  const where: Where = { file, line: item.line, element: `assessmentItem identifier="${item.attrs.identifier ?? ''}"` };
  const body = kid(item, 'itemBody');
  if (!body) {
    ctx.problems.push(problem(where, 'invalid_question', 'error', { kind: '', detail: 'no itemBody' }));
    return null;
  }
  linkFiles(body, file, where, ctx);
  const decls = declarations(item);
  const interactions = findAll(body, (e) => e.name.endsWith('Interaction'));
  const other = interactions.find((i) => !SUPPORTED.has(i.name));
  if (other) {
    ctx.problems.push(
      problem({ ...where, line: other.line, element: other.name }, 'no_counterpart', 'warning', {
        what: `A ${other.name}`,
        what_zh: other.name,
      }),
    );
    return null;
  }
  const modal = modalFeedback(item);
  const base = { title: item.attrs.title, where, ...(modal.general ? { explanation: modal.general } : {}) };
  const names = new Set(interactions.map((i) => i.name));
  const prompt = (i: El) => {
    const p = kid(i, 'prompt');
    return p ? innerXml(p) : '';
  };
  if (interactions.length === 1 && names.has('choiceInteraction')) {
    const ci = interactions[0]!;
    const decl = decls.get(ci.attrs.responseIdentifier ?? '');
    const stem = innerXml(body, (e) => (e === ci ? prompt(ci) : undefined)).trim();
    const choices = findAll(ci, (e) => e.name === 'simpleChoice');
    const multi = decl?.cardinality === 'multiple' || Number(ci.attrs.maxChoices ?? '1') !== 1;
    const mapped = new Map(decl?.mapping.map((m) => [m.key, m.value]));
    const best = Math.max(0, ...mapped.values());
    const answers: ChoiceAnswer[] = choices.map((c) => {
      const id = c.attrs.identifier ?? '';
      const right = decl?.correct.includes(id) ?? false;
      let fraction = right ? 100 : 0;
      if (!multi && mapped.size > 0 && best > 0) fraction = ((mapped.get(id) ?? 0) / best) * 100;
      if (multi && mapped.size > 0 && !decl?.correct.length) fraction = (mapped.get(id) ?? 0) > 0 ? 100 : -100;
      if (multi && mapped.size > 0 && right) fraction = mapped.get(id) ?? 100;
      const inline = kids(c, 'feedbackInline').map((f) => innerXml(f).trim());
      const own = [...inline, modal.byId.get(id) ?? ''].filter((f) => f !== '').join(' ');
      const html = innerXml(c, (e) => (e.name === 'feedbackInline' ? '' : undefined)).trim();
      return { html, fraction, ...(own ? { feedback: own } : {}) };
    });
    const feedback = optionFeedback(answers.map((a) => a.feedback));
    return { ...base, feedback, question: choiceQuestion(stem, answers, multi, where, ctx.problems) };
  }
  if (interactions.length === 1 && names.has('extendedTextInteraction')) {
    const ei = interactions[0]!;
    const stem = innerXml(body, (e) => (e === ei ? prompt(ei) : undefined)).trim();
    return { ...base, question: { kind: 'qa', content: { stem }, key: {} } };
  }
  if (
    interactions.length > 0 &&
    [...names].every((n) => n === 'textEntryInteraction' || n === 'inlineChoiceInteraction')
  ) {
    // Private-use marks stand for the gaps while the body is written out, then split it.
    const marks = new Map(interactions.map((e, i) => [e, `\ue100${i}\ue101`]));
    const parts = innerXml(body, (e) => marks.get(e))
      .trim()
      .split(/\ue100\d+\ue101/);
    const gaps = interactions.map((e) => gapOf(e, decls.get(e.attrs.responseIdentifier ?? ''), where, ctx));
    const question = gappedQuestion(parts, gaps, where, ctx.problems);
    return { ...base, feedback: gapFeedback(question, gaps), question };
  }
  ctx.problems.push(
    problem(where, 'no_counterpart', 'warning', {
      what:
        interactions.length === 0
          ? 'An item with no interaction'
          : `An item with ${interactions.map((i) => i.name).join(' + ')}`,
      what_zh:
        interactions.length === 0 ? '没有作答交互的题目' : `含 ${interactions.map((i) => i.name).join(' + ')} 的题目`,
    }),
  );
  return null;
}

/**
 * An item's modal feedback: the ones named after a choice (`identifier` = the choice's, as templates set the FEEDBACK
 * outcome to the response) by that choice, the others (general, correct, incorrect...) together as its explanation.
 */
function modalFeedback(item: El): { general: string; byId: Map<string, string> } {
  const byId = new Map<string, string>();
  const general: string[] = [];
  const choiceIds = new Set(
    findAll(item, (e) => e.name === 'simpleChoice' || e.name === 'inlineChoice').map((c) => c.attrs.identifier ?? ''),
  );
  for (const f of kids(item, 'modalFeedback')) {
    const html = innerXml(f).trim();
    if (html === '') continue;
    const id = f.attrs.identifier ?? '';
    if (choiceIds.has(id)) byId.set(id, html);
    else general.push(html);
  }
  return { general: general.join(''), byId };
}

/** A text entry or inline choice as a gap. */
function gapOf(e: El, decl: Declaration | undefined, where: Where, ctx: Context): Gap {
  const mapping = decl?.mapping ?? [];
  const best = Math.max(0, ...mapping.map((m) => m.value));
  if (e.name === 'textEntryInteraction') {
    const variants = [...(decl?.correct ?? [])];
    for (const m of mapping) {
      if (m.value >= best && best > 0) variants.push(m.key);
      else if (m.value > 0)
        ctx.problems.push(
          problem(where, 'partial_credit_dropped', 'info', {
            answer: m.key,
            fraction: Math.round((m.value / best) * 100),
          }),
        );
    }
    return { type: 'blank', variants: [...new Set(variants)], points: 1 };
  }
  // An empty inline choice is a "choose..." placeholder that is never right: not an option.
  const answers = kids(e, 'inlineChoice')
    .map((c) => ({ html: innerXml(c).trim(), fraction: decl?.correct.includes(c.attrs.identifier ?? '') ? 100 : 0 }))
    .filter((a) => a.html !== '' || a.fraction > 0);
  return { type: 'choice', multi: false, points: 1, answers };
}

/** Pictures the item links (`img src`, `object data`) are taken from the package and linked as embedded files. */
function linkFiles(body: El, file: string, where: Where, ctx: Context): void {
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  for (const el of findAll(body, (e) => e.name === 'img' || e.name === 'object')) {
    const attr = el.name === 'img' ? 'src' : 'data';
    const ref = el.attrs[attr];
    if (!ref || /^[a-z][a-z0-9+.-]*:/i.test(ref)) continue;
    let decoded = ref;
    try {
      decoded = decodeURI(ref);
    } catch {
      // Kept as written.
    }
    const path = safePath(`${dir}${decoded}`);
    const bytes = path === null ? undefined : ctx.pkg.get(path);
    if (path === null || !bytes) {
      ctx.problems.push(
        problem({ ...where, line: el.line, element: el.name }, 'file_missing', 'warning', { name: ref }),
      );
      continue;
    }
    let id = ctx.linked.get(path);
    if (!id) {
      id = `f${ctx.files.length + 1}`;
      const name = path.slice(path.lastIndexOf('/') + 1);
      ctx.files.push({ id, name, mime: mimeOf(name), bytes });
      ctx.linked.set(path, id);
    }
    el.attrs[attr] = fileUrl(id);
  }
}
