/**
 * The one definition of an id. A fuzz once ended a real attempt with `true` as its id, because a coercing
 * schema read `true`, `[1]`, `"0x1"` and `"1e0"` as 1: an id is now a positive integer and nothing else.
 */
import { z } from 'zod';

/** The largest id: ids are 32-bit database integers. */
export const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer as a JSON number. */
export const Id = z.number().int().positive().max(MAX_ID);

const idText = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'an id is written in digits')
  .pipe(z.coerce.number<string>().int().positive().max(MAX_ID));

/**
 * An id where values travel as text (query strings, form and multipart fields): digits only, no sign, exponent,
 * hex, dot or space. Its declared input also admits a number because clients hand numbers to the one HTTP
 * client, which writes them as digits; on the server the value is always text and checked as such.
 */
export const IdParam = idText as unknown as z.ZodPipe<z.ZodType<string, string | number>, typeof idText.out>;

/** Where an id field sits in a call's input, and how it travels there. */
export interface IdField {
  /** Path of the field; `number` stands for any element of an array. */
  path: (string | number)[];
  /** 'json' for a JSON number, 'text' for digits in a query or form. */
  kind: 'json' | 'text';
}

/** Every id field of a schema (nested objects and arrays included), found by the id schemas above. */
export function idFields(schema: z.ZodType | undefined): IdField[] {
  const found: IdField[] = [];
  const visit = (s: z.ZodType, path: (string | number)[], seen: Set<z.ZodType>): void => {
    if (s === Id) return void found.push({ path, kind: 'json' });
    if (s === IdParam) return void found.push({ path, kind: 'text' });
    if (seen.has(s)) return;
    const next = new Set(seen).add(s);
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (s instanceof z.ZodObject) {
      for (const [key, field] of Object.entries(s.shape)) visit(field as z.ZodType, [...path, key], next);
    } else if (s instanceof z.ZodArray) {
      visit(s.element as z.ZodType, [...path, 0], next);
    } else if (s instanceof z.ZodUnion) {
      for (const option of s.options) visit(option as z.ZodType, path, next);
    } else if (s instanceof z.ZodPipe) {
      visit(def.in as z.ZodType, path, next);
    } else if (def.innerType) {
      // optional, nullable, default, readonly, catch, prefault and the like wrap one schema.
      visit(def.innerType as z.ZodType, path, next);
    }
  };
  if (schema) visit(schema, [], new Set());
  // A union's options may repeat a field; keep one entry per path.
  const key = (f: IdField) => `${f.kind}:${f.path.join('.')}`;
  return [...new Map(found.map((f) => [key(f), f])).values()];
}
