/**
 * What the bank does to a question body, whoever calls: its rich text sanitized and the body parsed again, its
 * plain text, and where a picture it shows is stored. No database and no service: the bank and the import
 * worker threads (parsing/) run the same code.
 */
import { createHash } from 'node:crypto';
import {
  explanationProblem,
  parseQuestion,
  QuestionExplanation,
  trimmedExplanation,
  type QuestionBody,
} from '@examhall/contract';
import { sniffImage } from '../storage/sniff.js';
import { htmlToText, sanitizeQuestionHtml } from './richText.js';

/**
 * The content's rich-text fields (stem, passage, options, sub-questions') with `fn` applied. Walks the
 * content as plain JSON so that one function serves every kind; the result is parsed again by the caller.
 */
export function mapRichText(content: unknown, fn: (html: string) => string): unknown {
  if (!content || typeof content !== 'object' || Array.isArray(content)) return content;
  const out: Record<string, unknown> = { ...(content as Record<string, unknown>) };
  for (const field of ['stem', 'passage'] as const) {
    if (typeof out[field] === 'string') out[field] = fn(out[field]);
  }
  if (Array.isArray(out.options)) {
    out.options = out.options.map((o: unknown) =>
      o && typeof o === 'object' && typeof (o as { content?: unknown }).content === 'string'
        ? { ...o, content: fn((o as { content: string }).content) }
        : o,
    );
  }
  if (Array.isArray(out.subs)) out.subs = out.subs.map((s: unknown) => mapRichText(s, fn));
  return out;
}

/** The plain text of a question's stem, options, passage and sub-questions: what search looks in. */
export function stemText(body: QuestionBody): string {
  const parts: string[] = [];
  mapRichText(body.content, (html) => {
    parts.push(htmlToText(html));
    return html;
  });
  return parts.filter(Boolean).join(' ');
}

/** A body as the bank stores it (rich text sanitized, parsed again), or the path of its first problem. */
export function checkQuestionBody(
  question: QuestionBody,
): { body: QuestionBody; problem: null } | { body: null; problem: string } {
  const parsed = parseQuestion(question.kind, mapRichText(question.content, sanitizeQuestionHtml), question.key);
  return parsed.ok ? { body: parsed.body, problem: null } : { body: null, problem: parsed.problems[0] ?? 'invalid' };
}

/**
 * A question's explanation as the bank stores it: its rich text sanitized, blank parts left out (null when nothing
 * is left), every feedback naming an option of the body; or the path of its first problem.
 */
export function checkExplanation(
  body: QuestionBody,
  explanation: QuestionExplanation | null | undefined,
): { explanation: QuestionExplanation | null; problem: null } | { explanation: null; problem: string } {
  if (!explanation) return { explanation: null, problem: null };
  // Sanitized; markup that shows nothing (an editor's empty paragraph) is no text.
  const visible = (html: string) => {
    const safe = sanitizeQuestionHtml(html);
    return htmlToText(safe).trim() === '' && !/<img\b/i.test(safe) ? '' : safe;
  };
  const clean = {
    text: visible(explanation.text),
    options: Object.fromEntries(Object.entries(explanation.options).map(([id, t]) => [id, visible(t)])),
  };
  const parsed = QuestionExplanation.safeParse(clean);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { explanation: null, problem: `explanation.${issue.path.join('.')}: ${issue.message}` };
  }
  const problem = explanationProblem(body.content, parsed.data);
  return problem ? { explanation: null, problem } : { explanation: trimmedExplanation(parsed.data), problem: null };
}

/** A stored explanation (JSON), or null when there is none or it no longer reads. */
export function storedExplanation(json: string | null | undefined): QuestionExplanation | null {
  if (!json) return null;
  try {
    const parsed = QuestionExplanation.safeParse(JSON.parse(json));
    return parsed.success ? trimmedExplanation(parsed.data) : null;
  } catch {
    return null;
  }
}

/** Where a stored picture is: its object key, the URL it is served at, its type. */
export interface ImageTarget {
  key: string;
  url: string;
  mime: string;
}

/**
 * Where a picture is stored and served, from its bytes alone (content-addressed: the same picture is one
 * object with one URL); null when the bytes are not a PNG, JPEG, GIF or WebP picture.
 */
export function imageTargetOf(data: Buffer, apiPrefix: string): ImageTarget | null {
  const type = sniffImage(data);
  if (!type) return null;
  const name = `${createHash('sha256').update(data).digest('hex')}${type.ext}`;
  return { key: `bank/images/${name}`, url: `${apiPrefix}/media/images/${name}`, mime: type.mime };
}
