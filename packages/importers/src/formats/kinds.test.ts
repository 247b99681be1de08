import { kindExamples, parseQuestion, QUESTION_KINDS, type QuestionBody, type QuestionKind } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { exportQuestions, FORMATS, importFile, type Draft, type Format, type Problem } from '../index.js';

/** The name each format gives itself in its problems. */
const FORMAT_NAMES: Record<Format, string> = {
  gift: 'GIFT',
  moodle_xml: 'Moodle XML',
  qti: 'QTI 2.1',
  xlsx: 'Excel',
  csv: 'CSV',
  fps: 'FPS',
  problem_zip: 'problem zip',
};

const draftOf = (question: QuestionBody): Draft => ({
  question,
  folder: [],
  tags: [],
  knowledge_points: [],
  where: {},
});

/** A twelfth kind that exists only here, as if the contract had just added it: no format has a writer for it. */
const numberDraft = draftOf({
  kind: 'number',
  content: { stem: '<p>6 × 7 = ?</p>' },
  key: { value: 42 },
} as unknown as QuestionBody);

/** Each contract kind's first example, as a draft. */
const EXAMPLES = QUESTION_KINDS.map((kind) => {
  const example = kindExamples(kind)[0]!;
  const parsed = parseQuestion(kind, example.content, example.key);
  if (!parsed.ok) throw new Error(`${kind}: ${parsed.problems.join('; ')}`);
  return draftOf(parsed.body);
});

/** The kind a format reads back: choices it writes as another kind's type come back as that kind. */
function readBackAs(q: QuestionBody, format: Format): QuestionKind {
  const sheet = format === 'xlsx' || format === 'csv';
  // Without the platform's own kinds, several right options read back as multiple choice.
  if (!sheet && q.kind === 'indefinite' && q.key.options.length >= 2) return 'multiple';
  // QTI has no true/false interaction: a single choice of two options.
  if (format === 'qti' && q.kind === 'true_false') return 'single';
  return q.kind;
}

/** The not-exported warnings of an export, by the draft they are about (`question[n]`, n from 1). */
const notExported = (problems: Problem[], n: number) =>
  problems.filter((p) => p.code === 'not_exported' && p.where.element === `question[${n}]`);

describe('question kinds through every format', () => {
  it.each(FORMATS)(
    '%s: a kind the format has no writer for is reported not exported, naming the format and the kind',
    async (format) => {
      const out = await exportQuestions(format, [numberDraft, ...EXAMPLES]);
      const [warning, ...more] = notExported(out.problems, 1);
      expect(more).toEqual([]);
      expect(warning).toMatchObject({
        severity: 'warning',
        params: { kind: 'number', format: FORMAT_NAMES[format] },
      });
      expect(warning!.message).toContain(`a number question cannot be written as ${FORMAT_NAMES[format]}: `);
      expect(String(warning!.params.detail)).not.toBe('');
      // Nothing was written for it: the file reads back as the examples the format carries, and only those.
      const written = EXAMPLES.filter((_d, i) => notExported(out.problems, i + 2).length === 0);
      const back = await importFile({ name: `kinds.${out.extension}`, bytes: out.bytes, format });
      expect(back.questions.map((q) => q.question.kind)).toEqual(written.map((d) => readBackAs(d.question, format)));
    },
  );

  it.each(FORMATS)(
    "%s: every kind's first example comes back as its kind, or is reported not exported (none dropped silently)",
    async (format) => {
      const outcomes: string[] = [];
      for (const draft of EXAMPLES) {
        const kind = draft.question.kind;
        const out = await exportQuestions(format, [draft]);
        const refused = notExported(out.problems, 1);
        expect(
          out.problems.filter((p) => p.severity !== 'info' && !refused.includes(p)),
          kind,
        ).toEqual([]);
        if (refused.length > 0) {
          expect(refused, kind).toHaveLength(1);
          expect(refused[0]!.params, kind).toMatchObject({ kind, format: FORMAT_NAMES[format] });
          outcomes.push(`${kind}: not exported`);
          continue;
        }
        const back = await importFile({ name: `${kind}.${out.extension}`, bytes: out.bytes, format });
        expect(
          back.problems.filter((p) => p.severity !== 'info'),
          kind,
        ).toEqual([]);
        expect(
          back.questions.map((q) => q.question.kind),
          kind,
        ).toEqual([readBackAs(draft.question, format)]);
        outcomes.push(`${kind}: round trip`);
      }
      // Every kind was one or the other, and the format carries at least one of them.
      expect(outcomes).toHaveLength(QUESTION_KINDS.length);
      expect(outcomes.some((o) => o.endsWith('round trip'))).toBe(true);
    },
  );
});
