import { z } from 'zod';
import type { AnswerValue } from '../schemas/answer.js';
import {
  report,
  RICH_TEXT_MAX,
  round2,
  StemField,
  wrongAnswerKind,
  type AnyQuestionSpec,
  type CandidateSub,
  type IssueSink,
} from './common.js';

/** Fields every sub-question has; the rest of it is the content of its type's kind (a stem and its own fields). */
const subBase = {
  /** Sub-question id, unique within its question; keys and answers refer to it. */
  id: z.number({ error: 'a sub-question id is a number' }).int().min(1, 'sub-question ids start at 1'),
  /** Points of the sub-question. */
  score: z.number({ error: 'points must be a number' }).min(0, 'points are 0 or more').max(1000, 'at most 1000 points'),
  /** Its type id: one of the kinds that may be a sub-question (`sub` in the kind's file). */
  type: z.number({ error: 'a sub-question type is a number' }).int(),
};

/**
 * A sub-question of a reading or listening question: id, points, type and the content of its type's kind
 * (checked against that kind's content schema when the question is parsed).
 */
export const SubQuestion = z.object(subBase).loose();
/** A sub-question's own fields, and the rest as sent (its kind's content, checked by its kind). */
type SubFields = z.infer<typeof SubQuestion>;
/** A sub-question: its own fields and its kind's content (a stem, and options or blanks for today's kinds). */
export interface SubQuestion<T extends number = number> {
  /** Sub-question id. */
  id: number;
  /** Points of the sub-question. */
  score: number;
  /** Its type id. */
  type: T;
  /** Its text (every kind's content has a stem). */
  stem: string;
  /** Options, for kinds with options. */
  options?: { id: string; content: string }[];
  /** Number of blanks, for fill-in-blank. */
  blanks?: number;
  /** The rest of its kind's content. */
  [field: string]: unknown;
}

/**
 * The key of one sub-question as stored: the key of its type's kind (checked against it with the question).
 */
export const SubKey = z.record(z.string(), z.unknown());
/** The key of one sub-question. */
export type SubKey = z.infer<typeof SubKey>;

/** The type ids of the kinds among `S` that may be a sub-question. */
export type SubTypeOf<S extends AnyQuestionSpec> = Extract<S, { sub: true }>['type'];

/**
 * What reading and listening questions know of their sub-questions, from the kinds that may be one (`sub: true`):
 * the list's schema, the key check, scoring, answer checks and the candidate view. Built once from the kinds'
 * list (kinds/index.ts), so a kind that may be a sub-question needs no edit here.
 */
export interface SubQuestions<T extends number = number> {
  /** Type ids a sub-question may have, ascending. */
  types: readonly number[];
  /** The list of sub-questions: 1 to 50, ids unique, each its kind's content. */
  list: z.ZodType<SubQuestion<T>[], SubQuestion<T>[]>;
  /** Checks that every sub has a key of its kind that fits it, and that no key is left over. */
  checkKeys(ctx: IssueSink, subs: readonly SubQuestion<T>[], keys: Record<string, SubKey>): void;
  /** The sum of the subs' points, each scored by its kind, scaled to the question's points. */
  score(
    subs: readonly SubQuestion<T>[],
    keys: Record<string, SubKey>,
    value: AnswerValue | null,
    points: number,
  ): number;
  /** Why a subs answer does not fit, or null. */
  answerProblem(kind: string, subs: readonly SubQuestion<T>[], value: AnswerValue): string | null;
  /** Sub-questions as candidates see them. */
  view(subs: readonly SubQuestion<T>[]): CandidateSub[];
}

/** The sub-question rules of compound kinds, from the kinds that may be a sub-question. */
export function subQuestions<S extends AnyQuestionSpec>(kinds: readonly S[]): SubQuestions<SubTypeOf<S>> {
  const byType = new Map<number, AnyQuestionSpec>();
  for (const k of kinds) if (k.sub) byType.set(k.type, k);
  const types = [...byType.keys()].sort((a, b) => a - b);
  const named = types.map((t) => `${byType.get(t)!.label['en-US'].toLowerCase()} (${t})`);
  const names = named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)}` : named.join('');
  // A sub's content: everything but the sub's own fields, as its kind's content schema reads it.
  const contentOf = (sub: SubFields | SubQuestion): Record<string, unknown> => {
    const { id: _id, score: _score, type: _type, ...content } = sub;
    return content;
  };
  // A parsed sub with its kind: the list below keeps only what the kind's content schema read, so the content is
  // the kind's own and is not parsed again when a sub is scored, checked or shown.
  const read = (sub: SubQuestion) => {
    const kind = byType.get(sub.type);
    return kind ? { kind, content: contentOf(sub) } : null;
  };
  const list = z
    .array(SubQuestion)
    .min(1, 'add at least one sub-question')
    .max(50, 'at most 50 sub-questions')
    .superRefine((subs, ctx) => {
      const seen = new Set<number>();
      subs.forEach((s, i) => {
        if (seen.has(s.id)) report(ctx, [i, 'id'], `sub-question id ${s.id} is used twice`);
        seen.add(s.id);
        const kind = byType.get(s.type);
        if (!kind) return report(ctx, [i, 'type'], `a sub-question is ${names}`);
        const parsed = kind.content.safeParse(contentOf(s));
        if (!parsed.success) for (const line of issuesOf(parsed.error)) report(ctx, [i, ...line.path], line.message);
      });
    })
    // Each sub keeps its own fields and what its kind's content schema reads (unknown fields dropped).
    .transform((subs) =>
      subs.map((s) => {
        const parsed = byType.get(s.type)?.content.safeParse(contentOf(s));
        return { id: s.id, score: s.score, type: s.type, ...(parsed?.success ? (parsed.data as object) : {}) };
      }),
    ) as unknown as z.ZodType<SubQuestion<SubTypeOf<S>>[], SubQuestion<SubTypeOf<S>>[]>;
  return {
    types,
    list,
    checkKeys(ctx, subs, keys) {
      const ids = new Set(subs.map((s) => String(s.id)));
      for (const id of Object.keys(keys)) {
        if (!ids.has(id)) report(ctx, ['key', 'subs', id], `there is no sub-question ${id}`);
      }
      for (const sub of subs) {
        const path = ['key', 'subs', String(sub.id)];
        const kind = byType.get(sub.type);
        const raw = keys[String(sub.id)];
        if (!kind) continue;
        if (raw === undefined) {
          report(ctx, path, `sub-question ${sub.id} has no key`);
          continue;
        }
        // The kind's whole body check, so a sub's key is held to what the kind's own key is (an option that exists).
        const parsed = kind.body.safeParse({ kind: kind.kind, content: contentOf(sub), key: raw });
        if (parsed.success) continue;
        for (const line of issuesOf(parsed.error).filter((l) => l.path[0] === 'key'))
          report(ctx, [...path, ...line.path.slice(1)], line.message);
      }
    },
    score(subs, keys, value, points) {
      if (value?.kind !== 'subs') return 0;
      const max = subs.reduce((n, s) => n + s.score, 0);
      if (max <= 0) return 0;
      const got = subs.reduce((n, s) => {
        const key = keys[String(s.id)];
        const answer = value.subs[String(s.id)] ?? null;
        const sub = read(s);
        if (!sub || !key || !answer) return n;
        return n + (sub.kind.score({ content: sub.content, key }, answer, s.score) ?? 0);
      }, 0);
      return round2((got / max) * points);
    },
    answerProblem(kind, subs, value) {
      const wrong = wrongAnswerKind(kind, 'subs', value);
      if (wrong || value.kind !== 'subs') return wrong;
      for (const [subId, subValue] of Object.entries(value.subs)) {
        const sub = subs.find((s) => String(s.id) === subId);
        if (!sub) return `answer.subs.${subId}: no such sub-question`;
        const found = read(sub);
        const problem = found
          ? found.kind.answerProblem(found.content, subValue)
          : `answer: sub-question ${subId} cannot be answered`;
        if (problem) return problem.replace(/^answer/, `answer.subs.${subId}`);
      }
      return null;
    },
    view(subs) {
      return subs.map((s, i) => {
        const found = read(s);
        const shown = found ? found.kind.candidateView(found.content) : { stem: s.stem };
        return { id: s.id, type: s.type, order_num: i + 1, score: s.score, ...shown } as CandidateSub;
      });
    },
  };
}

/** A Zod error's issues with their paths as strings and numbers. */
function issuesOf(error: z.ZodError): { path: (string | number)[]; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
}

/** Content of a reading question. */
export interface ReadingContent<T extends number = number> {
  /** Instructions (sanitized HTML). */
  stem: string;
  /** The passage (sanitized HTML). */
  passage: string;
  /** Sub-questions. */
  subs: SubQuestion<T>[];
}

/** Content of a reading question: a passage and its sub-questions. */
export function readingContent<T extends number>(subs: SubQuestions<T>) {
  return z.object({
    stem: StemField,
    passage: z.string().min(1, 'the passage is empty').max(RICH_TEXT_MAX, 'the passage is too long'),
    subs: subs.list,
  });
}

/** Audio of a listening question as candidates learn of it. */
export const ListeningAudio = z.object({
  /** How often a candidate may play it, 1 to 10. */
  play_limit: z
    .number({ error: 'the play limit must be a number' })
    .int('the play limit is a whole number')
    .min(1, 'at least one play')
    .max(10, 'at most 10 plays'),
  /** Its length in seconds (read on the server at upload). */
  duration_s: z
    .number({ error: 'the duration must be a number' })
    .positive('the duration must be above 0')
    .max(3 * 3600, 'at most three hours'),
});

/** Content of a listening question. */
export interface ListeningContent<T extends number = number> {
  /** Instructions (sanitized HTML). */
  stem: string;
  /** The audio's play limit and length. */
  audio: z.infer<typeof ListeningAudio>;
  /** Sub-questions. */
  subs: SubQuestion<T>[];
}

/** Content of a listening question: audio and its sub-questions. */
export function listeningContent<T extends number>(subs: SubQuestions<T>) {
  return z.object({ stem: StemField, audio: ListeningAudio, subs: subs.list });
}

/** Key of a reading question: a key per sub-question id. */
export const ReadingKey = z.object({
  /** Key of each sub-question by id (its shape is its kind's key). */
  subs: z.record(z.string(), SubKey),
});
/** Key of a reading question. */
export type ReadingKey = z.infer<typeof ReadingKey>;

/** Key of a listening question: the audio's storage key and a key per sub-question. */
export const ListeningKey = z.object({
  /** Where the audio is stored; never shown (candidates get a short-lived link). */
  audio: z.object({
    /** Object key in storage. */
    key: z.string().min(1, 'upload the audio').max(300),
  }),
  /** Key of each sub-question by id. */
  subs: z.record(z.string(), SubKey),
});
/** Key of a listening question. */
export type ListeningKey = z.infer<typeof ListeningKey>;

/**
 * What reading and listening share as kinds: a body whose keys are checked per sub-question, in the scored sections,
 * answered and scored sub by sub (the subs' points scaled to the question's), never a sub-question themselves.
 */
export function compoundFacts<K extends string, T extends number, C extends z.ZodObject, Y extends z.ZodObject>(
  kind: K,
  subs: SubQuestions<T>,
  schemas: { content: C; key: Y },
) {
  type Body = { content: { subs: SubQuestion<T>[] }; key: { subs: Record<string, SubKey> } };
  const body = z.object({ kind: z.literal(kind), content: schemas.content, key: schemas.key }).superRefine((b, ctx) => {
    const { content, key } = b as unknown as Body;
    subs.checkKeys(ctx, content.subs, key.subs);
  });
  return {
    kind,
    sections: ['linetest', 'major'] as ('linetest' | 'major')[],
    content: schemas.content,
    key: schemas.key,
    body,
    answer: 'subs' as const,
    scoring: 'auto' as const,
    shuffleOptions: false,
    code: false,
    sub: false as const,
    defaultScore: 10,
    responses: () => null,
    score: (b: Body, value: AnswerValue | null, points: number) =>
      subs.score(b.content.subs, b.key.subs, value, points),
    answerProblem: (c: Body['content'], value: AnswerValue) => subs.answerProblem(kind, c.subs, value),
  };
}
