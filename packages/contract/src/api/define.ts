/** How a call is described in the catalogue. */
import type { z } from 'zod';
import type { Permission, ResourceKind } from '../enums.js';

/** Who may make a call: `integration` is another system with an API token (`Authorization: Bearer`). */
export type CallAuth = 'public' | 'candidate' | 'staff' | 'phone' | 'integration';

/**
 * How an id field of a staff call is checked: a resource kind (in http/route.ts, like the scope), or `filter`, a
 * value an admin's list is filtered by, which only narrows what the caller may already see.
 */
export type IdRef = ResourceKind | 'filter';

/** One API call. */
export interface CallDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  D extends z.ZodType = z.ZodType,
  A extends CallAuth = CallAuth,
> {
  /** HTTP method. */
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after the API prefix; a path the candidate client calls is kept exactly (docs/contract.md#calls). */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Query-string schema. */
  query: Q;
  /** Body schema. */
  body: B;
  /** Schema of `data` in the success envelope. */
  data: D;
  /** Who may make it. */
  auth: A;
  /** Permission a staff call requires (staff calls only). */
  permission?: Permission;
  /** How the body is encoded; JSON unless said. */
  bodyFormat?: 'json' | 'form' | 'multipart';
  /** The file of a multipart call: its form field and size limit; `body` then validates the other fields. */
  upload?: { field: string; maxBytes?: number };
  /** How long a client waits for the answer, ms, when longer than the usual limit (the call waits for the judge). */
  waitMs?: number;
  /** Largest JSON body it accepts, bytes, when more than the app's default (e.g. a question with its hidden cases). */
  bodyLimit?: number;
  /** True when the server serves it now; calls of later features are declared ahead. */
  live?: boolean;
  /**
   * Where the ids of the resources a staff call acts on are: `field` of the query or body (a number or an
   * array of numbers), each of kind `kind`. The service checks them with `access.require`; a resource of
   * another team, or an exam the caller is not assigned to, answers 404 (routes/access.test.ts).
   */
  scope?: { kind: ResourceKind; field: string };
  /**
   * Every other field of the query or body that holds an id (each use of the Id schemas, schemas/ids.ts), by its path
   * (`a.b`, `list[].c`), and how it is checked. A resource kind is checked in http/route.ts before the handler runs, exactly like the
   * scope: an id out of the caller's reach answers 404, and a part of an exam (attempt, invitation, slot, version,
   * pair, exam question) must belong to the exam the call is scoped to. routes/access.test.ts fails on an id field declared nowhere.
   */
  refs?: Readonly<Record<string, IdRef>>;
  /**
   * What the call does with who an exam's candidates are (a name, phone, e-mail, school, or anything that joins an
   * attempt to a person) while the exam's marking is blind: `refused` answers a grader 403 `blind_marking` (in
   * http/route.ts), `blanked` answers without them (its service asks `access.identityHidden`). A call that answers
   * no one's identity leaves it out; routes/blind.test.ts holds every call a grader may make to the rule.
   */
  identity?: 'refused' | 'blanked';
  /**
   * Marks a staff call that deliberately acts on no single team's resource (the caller's own account, lists
   * the service filters by team, admin-only settings). A staff call needs either this or `scope`.
   */
  teamFree?: true;
  /**
   * True for the staff calls an account may make while it must still enrol a second factor (the operator
   * requires one of admins): its own account, logout and the enrolment. Every other call answers
   * `totp_enrolment_required` until it has enrolled.
   */
  beforeSecondFactor?: true;
  /**
   * True when the call answers a file (its content type, and `content-disposition` naming it) instead of the
   * success envelope; its errors are the usual error envelope. `data` is then unused.
   */
  download?: true;
  /**
   * True when the call is a browser's navigation that answers a redirect (302 and `Location`) instead of the
   * envelope: the single sign-on steps. Its failures lead to the staff login page, which names the error code.
   */
  redirect?: true;
  /** 'sse' when the call answers a stream of server-sent events, each `data:` one JSON object of `data`'s schema. */
  stream?: 'sse';
  /**
   * What names the exam a candidate call acts on when it is not an `exam_id` field of its query or body: another field
   * holding the exam id (`/exam/show`'s `id`) or an invitation id (`anid`). The exam's own rules on the browser (Safe
   * Exam Browser) are checked on it in http/route.ts; `candidateExamRef` answers it for every call.
   */
  examRef?: { field: string; kind: 'exam' | 'invitation' };
}

/** Where a candidate call names its exam: a field of its query or body, holding an exam id or an invitation id. */
export interface CandidateExamRef {
  part: 'query' | 'body';
  field: string;
  kind: 'exam' | 'invitation';
}

/** The field names of an object schema (its shape's keys; none for anything else). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Where a candidate call names the exam it acts on: its declared `examRef`, else an `exam_id` field of its query or
 * body; null for a call that acts on no exam (the exam list, the profile, logging out).
 */
export function candidateExamRef(c: CallDef): CandidateExamRef | null {
  if (c.auth !== 'candidate') return null;
  const field = c.examRef?.field ?? 'exam_id';
  const kind = c.examRef?.kind ?? 'exam';
  for (const part of ['query', 'body'] as const) {
    if (fieldsOf(c[part]).includes(field)) return { part, field, kind };
  }
  return null;
}

/** Declares one call, keeping its exact types. */
export function call<
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  D extends z.ZodType,
  A extends CallAuth,
>(def: CallDef<Q, B, D, A>): CallDef<Q, B, D, A> {
  return def;
}
