import { BANK_LIMITS, BankFolderName, BankTag, feedbackTargets, problemsOf, QuestionBody } from '@examhall/contract';
import { problem } from './problems.js';
import type { Draft, Problem, Where } from './types.js';

/** A draft as a format's reader builds it, before the contract checks it. */
export interface RawDraft {
  /** `{ kind, content, key }`, unchecked. */
  question: { kind: string; content: unknown; key: unknown };
  title?: string;
  folder?: string[];
  tags?: string[];
  knowledge_points?: string[];
  difficulty?: number;
  points?: number;
  explanation?: string;
  /** Feedback per option (HTML) by option id ('A', or '2.A' for a sub-question's). */
  feedback?: Record<string, string>;
  where: Where;
}

const clean = (s: string | undefined): string | undefined => {
  const t = s?.trim();
  return t ? t : undefined;
};

/**
 * Checks a raw draft with the contract's schemas: a question that does not parse becomes a located problem
 * (never a half-built draft); metadata the bank would refuse is left out with a note.
 */
export function finishDraft(raw: RawDraft, problems: Problem[]): Draft | null {
  const parsed = QuestionBody.safeParse(raw.question);
  if (!parsed.success) {
    problems.push(
      problem(raw.where, 'invalid_question', 'error', {
        kind: raw.question.kind,
        detail: problemsOf(parsed.error).join('; '),
      }),
    );
    return null;
  }
  const drop = (field: string, field_zh: string, value: string, detail: string) =>
    problems.push(problem(raw.where, 'metadata_dropped', 'info', { field, field_zh, value, detail }));
  const tags: string[] = [];
  for (const t of raw.tags ?? []) {
    const ok = BankTag.safeParse(t);
    if (!ok.success) drop('tag', '标签', t, problemsOf(ok.error).join('; '));
    else if (tags.length >= BANK_LIMITS.tags) drop('tag', '标签', t, `at most ${BANK_LIMITS.tags} tags`);
    else if (!tags.includes(ok.data)) tags.push(ok.data);
  }
  const folder: string[] = [];
  for (const f of raw.folder ?? []) {
    const ok = BankFolderName.safeParse(f);
    if (!ok.success) drop('folder', '文件夹', f, problemsOf(ok.error).join('; '));
    else if (folder.length > BANK_LIMITS.folderDepth) drop('folder', '文件夹', f, 'too deep');
    else folder.push(ok.data);
  }
  const draft: Draft = {
    question: parsed.data,
    folder,
    tags,
    knowledge_points: [...new Set((raw.knowledge_points ?? []).map((k) => k.trim()).filter(Boolean))],
    where: raw.where,
  };
  const title = clean(raw.title);
  if (title !== undefined) draft.title = title;
  const explanation = clean(raw.explanation);
  if (explanation !== undefined) draft.explanation = explanation;
  // Feedback is kept for the options the question has (a reader names them as it builds the options).
  const targets = new Set(feedbackTargets(parsed.data.content));
  const feedback = Object.entries(raw.feedback ?? {}).flatMap(([id, text]) => {
    const t = clean(text);
    return t !== undefined && targets.has(id) ? [[id, t] as const] : [];
  });
  if (feedback.length > 0) draft.feedback = Object.fromEntries(feedback);
  if (raw.difficulty !== undefined && Number.isInteger(raw.difficulty) && raw.difficulty >= 1 && raw.difficulty <= 5)
    draft.difficulty = raw.difficulty;
  if (raw.points !== undefined && Number.isFinite(raw.points) && raw.points >= 0 && raw.points <= 1000)
    draft.points = raw.points;
  return draft;
}
