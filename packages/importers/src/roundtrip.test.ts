import { feedbackTargets, LANGUAGE_IDS, type QuestionBody } from '@examhall/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportQuestions, importFile, TRUE_FALSE_OPTIONS, type Draft, type Format } from './index.js';
import { fpsLanguages } from './formats/fps/import.js';
import { round5 } from './mapping.js';
import { escapeHtml } from './richText.js';

// Characters chosen to hit every format's special characters (GIFT's escapes, XML's, cloze's) and CJK text.
const CHARS = [...'abcXYZ 中文题目=~#{}\\:%&<>"\'/-_.,?!019'];
const text = (max = 16) =>
  fc
    .string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength: max })
    .map((s) => s.trim())
    .filter((s) => s !== '' && !s.startsWith('%') && !s.includes('___'));
const word = fc.string({ unit: fc.constantFrom(...'abcxyz题目标签'), minLength: 1, maxLength: 8 });
// GIFT reads an answer with "->" as a matching pair (as Moodle does) and has no escape for it.
const variant = text().filter((v) => !v.includes('->'));
const html = text().map((t) => escapeHtml(t));
const para = html.map((h) => `<p>${h}</p>`);
const options = fc
  .array(html, { minLength: 2, maxLength: 8 })
  .map((texts) => texts.map((content, i) => ({ id: 'ABCDEFGH'[i]!, content })));
const pick = <T>(list: T[]) => fc.integer({ min: 0, max: list.length - 1 }).map((i) => list[i]!);

/** A body of each kind the formats write. */
const bodies = (maxBlanks: number): fc.Arbitrary<QuestionBody> =>
  fc.oneof(
    fc.tuple(para, options).chain(([stem, opts]) =>
      pick(opts).map((o): QuestionBody => ({
        kind: 'single',
        content: { stem, options: opts },
        key: { option: o.id },
      })),
    ),
    fc.tuple(para, options).chain(([stem, opts]) =>
      fc
        .subarray(
          opts.map((o) => o.id),
          { minLength: 1 },
        )
        .map((ids): QuestionBody =>
          ids.length >= 2
            ? { kind: 'multiple', content: { stem, options: opts }, key: { options: ids } }
            : { kind: 'indefinite', content: { stem, options: opts }, key: { options: ids } },
        ),
    ),
    fc.tuple(para, options).chain(([stem, opts]) =>
      fc
        .array(fc.integer({ min: 0, max: 1000 }), { minLength: opts.length, maxLength: opts.length })
        .filter((s) => s.filter((v) => v > 0).length >= 2)
        .map((scores): QuestionBody => ({
          kind: 'gradient',
          content: { stem, options: opts },
          key: { scores: Object.fromEntries(opts.map((o, i) => [o.id, scores[i]!])) },
        })),
    ),
    fc.tuple(para, fc.constantFrom('A', 'B')).map(([stem, option]): QuestionBody => ({
      kind: 'true_false',
      content: {
        stem,
        options: [
          { id: 'A', content: '是' },
          { id: 'B', content: '否' },
        ],
      },
      key: { option },
    })),
    fc
      .array(fc.tuple(html, fc.uniqueArray(variant, { minLength: 1, maxLength: 3 })), {
        minLength: 1,
        maxLength: maxBlanks,
      })
      .chain((blanks) =>
        html.map((tail): QuestionBody => ({
          kind: 'fill_blank',
          content: { stem: `<p>${blanks.map(([lead]) => `${lead} ___ `).join('')}${tail}</p>`, blanks: blanks.length },
          key: { blanks: blanks.map(([, v]) => v) },
        })),
      ),
    fc
      .tuple(para, fc.option(para, { nil: undefined }))
      .map(([stem, rubric]): QuestionBody => ({ kind: 'qa', content: { stem }, key: rubric ? { rubric } : {} })),
  );

/** Kinds only the sheets carry besides the common ones: evaluation items and programming Q&A. */
const sheetBodies: fc.Arbitrary<QuestionBody> = fc.oneof(
  bodies(4),
  fc.tuple(para, options, word).chain(([stem, opts, dimension]) =>
    fc
      .array(fc.integer({ min: 0, max: 1000 }), { minLength: opts.length, maxLength: opts.length })
      .filter((s) => s.some((v) => v > 0))
      .map((scores): QuestionBody => ({
        kind: 'evaluation',
        content: { stem, options: opts, dimension },
        key: { scores: Object.fromEntries(opts.map((o, i) => [o.id, scores[i]!])) },
      })),
  ),
  fc
    .tuple(para, fc.uniqueArray(fc.constantFrom(...LANGUAGE_IDS), { minLength: 1, maxLength: 4 }), fc.option(para))
    .map(([stem, languages, rubric]): QuestionBody => ({
      kind: 'programming_qa',
      content: { stem, languages },
      key: rubric ? { rubric } : {},
    })),
);

// Program text, inputs and outputs: several lines, CJK, spaces at the ends (never trimmed).
const code = fc.string({ unit: fc.constantFrom(...'int main(){}\n;ab 中文<>&"'), minLength: 1, maxLength: 30 });
const io = fc.string({ unit: fc.constantFrom(...'0123 ab\n中-<&'), maxLength: 20 });
const ioCase = fc.record({ input: io, output: io });

/** Programming problems; `defaultChecker` for formats that carry no checker (FPS). */
const programmingBodies = (defaultChecker: boolean): fc.Arbitrary<QuestionBody> =>
  fc
    .record({
      stem: para,
      languages: fc.uniqueArray(fc.constantFrom(...LANGUAGE_IDS), { minLength: 1, maxLength: 4 }),
      samples: fc.array(ioCase, { maxLength: 3 }),
      time_limit_ms: fc.integer({ min: 100, max: 10_000 }),
      memory_limit_mb: fc.integer({ min: 32, max: 1024 }),
      cases: fc.array(ioCase, { minLength: 1, maxLength: 4 }),
      reference: fc.option(fc.record({ language: fc.constantFrom(...LANGUAGE_IDS), source: code }), { nil: undefined }),
      checker: defaultChecker
        ? fc.constant('default')
        : fc.oneof(
            fc.constantFrom('default', 'exact', 'lines', 'float:0.001'),
            fc.record({ language: fc.constantFrom(...LANGUAGE_IDS), source: code }),
          ),
    })
    .chain((p) =>
      fc.option(fc.subarray(p.languages, { minLength: 1 }), { nil: undefined }).chain((starterLangs) =>
        fc
          .array(code, { minLength: starterLangs?.length ?? 0, maxLength: starterLangs?.length ?? 0 })
          .map((sources): QuestionBody => ({
            kind: 'programming',
            content: {
              stem: p.stem,
              languages: p.languages,
              ...(starterLangs ? { starter: Object.fromEntries(starterLangs.map((l, i) => [l, sources[i]!])) } : {}),
              samples: p.samples,
              time_limit_ms: p.time_limit_ms,
              memory_limit_mb: p.memory_limit_mb,
            },
            key: { checker: p.checker, cases: p.cases, ...(p.reference ? { reference: p.reference } : {}) },
          })),
      ),
    );

const drafts = (question: fc.Arbitrary<QuestionBody>) =>
  fc.array(
    fc
      .record({
        question,
        title: text(),
        folder: fc.array(word, { maxLength: 3 }),
        tags: fc.uniqueArray(word, { maxLength: 3 }),
        difficulty: fc.integer({ min: 1, max: 5 }),
        knowledge_points: fc.uniqueArray(word, { maxLength: 2 }),
        points: fc.integer({ min: 0, max: 100 }),
        explanation: fc.option(para, { nil: undefined }),
      })
      .chain((d) =>
        // Feedback for some of the options the question has.
        fc
          .subarray(feedbackTargets(d.question.content))
          .chain((ids) =>
            fc
              .array(html, { minLength: ids.length, maxLength: ids.length })
              .map((texts) =>
                ids.length > 0 ? { ...d, feedback: Object.fromEntries(ids.map((id, i) => [id, texts[i]!])) } : d,
              ),
          ),
      ),
    { minLength: 1, maxLength: 6 },
  );

/** A gradient's scores as percentages of the best: no format keeps the scale (but the sheets). */
function normalQuestion(q: QuestionBody, format: Format): QuestionBody {
  if (format === 'xlsx' || format === 'csv') return q;
  if (q.kind === 'programming') {
    // Hidden cases come back named by their file (or their position in FPS).
    const cases = q.key.cases.map((c, i) => ({ ...c, name: c.name ?? String(i + 1) }));
    if (format === 'problem_zip') return { ...q, key: { ...q.key, cases } };
    const { starter: _starter, ...content } = q.content;
    return {
      ...q,
      content: { ...content, languages: fpsLanguages(q.key.reference?.language) },
      key: { ...q.key, cases },
    };
  }
  if (q.kind === 'gradient') {
    const best = Math.max(...Object.values(q.key.scores));
    const scores = Object.fromEntries(Object.entries(q.key.scores).map(([k, v]) => [k, round5((v / best) * 100)]));
    return { ...q, key: { scores } };
  }
  if (q.kind === 'indefinite' && q.key.options.length >= 2) return { ...q, kind: 'multiple' };
  if (q.kind === 'true_false')
    return format === 'qti'
      ? { kind: 'single', content: q.content, key: q.key }
      : {
          ...q,
          content: { ...q.content, options: TRUE_FALSE_OPTIONS.map((content, i) => ({ id: 'AB'[i]!, content })) },
        };
  if (q.kind === 'qa' && format !== 'moodle_xml') return { ...q, key: {} };
  return q;
}

/** What each format carries of a draft (see the README's table of losses). */
function carried(d: Omit<Draft, 'where'>, format: Format): Record<string, unknown> {
  const question = normalQuestion(d.question, format);
  switch (format) {
    case 'gift':
      return {
        question,
        title: d.title,
        folder: d.folder,
        tags: d.tags,
        explanation: d.explanation,
        feedback: d.feedback,
      };
    case 'moodle_xml':
      return {
        question,
        title: d.title,
        folder: d.folder,
        tags: d.tags,
        explanation: d.explanation,
        feedback: d.feedback,
        points: d.points,
      };
    case 'qti':
      return { question, title: d.title, explanation: d.explanation, feedback: d.feedback };
    case 'xlsx':
    case 'csv':
    case 'problem_zip':
      return { ...d, question };
    case 'fps':
      return { question, title: d.title, tags: d.tags };
  }
}

const comparable = (d: Draft, format: Format) => {
  const { where: _where, ...rest } = d;
  return carried(rest, format);
};

describe.each([
  ['gift', bodies(1)],
  ['moodle_xml', bodies(4)],
  ['qti', bodies(4)],
  ['xlsx', sheetBodies],
  ['csv', sheetBodies],
  ['fps', programmingBodies(true)],
  ['problem_zip', programmingBodies(false)],
] as const)('round trip through %s', (format, question) => {
  it('exports a bank of every type the format carries and imports the same questions', async () => {
    await fc.assert(
      fc.asyncProperty(drafts(question), async (bank) => {
        const input = bank.map((d) => ({ ...d, where: {} })) as Draft[];
        const out = await exportQuestions(format, input);
        expect(out.problems).toEqual([]);
        const back = await importFile({ name: `bank.${out.extension}`, bytes: out.bytes, format });
        expect(back.problems.filter((p) => p.severity !== 'info')).toEqual([]);
        expect(back.questions.map((q) => comparable(q, format))).toEqual(
          input.map((d) => JSON.parse(JSON.stringify(comparable(d, format)))),
        );
      }),
      { numRuns: format === 'xlsx' ? 60 : 150 },
    );
  });
});
