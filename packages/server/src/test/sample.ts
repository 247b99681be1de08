/**
 * Valid samples of the catalogue's queries and bodies, built from their schemas, and copies with one field
 * replaced: the fuzz and the id tests change one field of an otherwise valid call, so the field is the only
 * fault.
 */
import { z } from 'zod';

const OMIT = Symbol('omit');
/** Leaf values tried in turn until the leaf's schema takes one. */
const LEAF_CANDIDATES: unknown[] = [
  1,
  '1',
  'x',
  'abcdefgh-1234',
  '13800138000',
  '86',
  'A',
  'a'.repeat(64),
  true,
  0,
  [],
  {},
];

/** What the sampler cannot guess: a body's cross-field rules (deep-merged into its sample). */
const BODY_EXTRA: Record<string, Record<string, unknown>> = {
  answer: { event: 5 },
  proctorIdPhoto: { phone: '13800138000' },
  examEditorSaveDraft: { draft: { end_at: 2 } },
  examEditorLiveChange: { time_minutes: 60 },
  scheduleAccommodations: { extra: { mode: 'minutes', value: 5 } },
  invitationsBulk: { phones: [{ phone: '13800138000' }] },
  examSmsSave: { invitation_template: '{link}', reminder_template: '{link}' },
  webhookSave: { url: 'https://ats.example.com/hooks/examhall' },
};

function merge(into: unknown, extra: Record<string, unknown>): unknown {
  const out = { ...(into as Record<string, unknown>) };
  for (const [k, v] of Object.entries(extra)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? merge(out[k], v as Record<string, unknown>) : v;
  }
  return out;
}

/** A valid sample of a call's query or body. */
export function sampleOf(name: string, part: 'query' | 'body', schema: z.ZodType): unknown {
  const extra = part === 'body' ? BODY_EXTRA[name] : undefined;
  return extra ? merge(sample(schema), extra) : sample(schema);
}

type Def = Record<string, unknown>;
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** A small valid value of a schema (OMIT for a field that may be left out), built by introspection. */
function sample(s: z.ZodType): unknown {
  const def = defOf(s);
  if (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodPrefault) return OMIT;
  if (s instanceof z.ZodNullable) return sample(def.innerType as z.ZodType);
  if (s instanceof z.ZodObject) {
    const out: Record<string, unknown> = {};
    for (const [k, field] of Object.entries(s.shape)) {
      const v = sample(field as z.ZodType);
      if (v !== OMIT) out[k] = v;
    }
    return out;
  }
  if (s instanceof z.ZodArray) {
    for (let n = 0; n <= 3; n += 1) {
      const v = Array.from({ length: n }, () => sample(s.element as z.ZodType));
      if (s.safeParse(v).success) return v;
    }
    return [];
  }
  if (s instanceof z.ZodUnion) {
    for (const option of s.options) {
      const v = sample(option as z.ZodType);
      if (s.safeParse(v).success) return v;
    }
  }
  if (s instanceof z.ZodPipe) {
    const v = sample(def.in as z.ZodType);
    if (s.safeParse(v).success) return v;
  }
  if (s instanceof z.ZodEnum) return Object.values(def.entries as Record<string, unknown>)[0];
  if (s instanceof z.ZodLiteral) return (def.values as unknown[])[0];
  return LEAF_CANDIDATES.find((c) => s.safeParse(c).success);
}

/** A copy of `value` with the field at `path` set to `bad`; arrays get an element when they have none. */
export function withField(schema: z.ZodType, value: unknown, path: (string | number)[], bad: unknown): unknown {
  if (path.length === 0) return bad;
  let s = schema;
  // Wrappers (optional, default...) and pipes (a transform's input) lead to the schema that holds the field.
  for (;;) {
    if (s instanceof z.ZodObject || s instanceof z.ZodArray) break;
    const def = defOf(s);
    if (def.innerType) s = def.innerType as z.ZodType;
    else if (s instanceof z.ZodPipe) s = def.in as z.ZodType;
    else break;
  }
  const [head, ...rest] = path;
  if (s instanceof z.ZodUnion) {
    // The option that has the field (e.g. a section's draw rule rather than its fixed items).
    const option = s.options.find((o) =>
      typeof head === 'string' ? o instanceof z.ZodObject && head in o.shape : o instanceof z.ZodArray,
    );
    if (!option) throw new Error(`cannot reach ${path.join('.')}`);
    const v = z.safeParse(option, value).success ? value : sample(option as z.ZodType);
    return withField(option as z.ZodType, v, path, bad);
  }
  if (s instanceof z.ZodArray) {
    const element = s.element as z.ZodType;
    const items = Array.isArray(value) && value.length > 0 ? [...(value as unknown[])] : [sample(element)];
    items[0] = withField(element, items[0], rest, bad);
    return items;
  }
  if (s instanceof z.ZodObject) {
    const obj = { ...((value ?? {}) as Record<string, unknown>) };
    const field = s.shape[head as string] as z.ZodType;
    const current = obj[head as string] ?? sample(field);
    obj[head as string] = withField(field, current === OMIT ? undefined : current, rest, bad);
    return obj;
  }
  throw new Error(`cannot reach ${path.join('.')}`);
}
