import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, type CallDef } from '../api/index.js';
import { Id, IdParam, idFields } from './ids.js';

/** Values that a coercing schema once read as id 1. */
const NOT_IDS_JSON: unknown[] = [
  true,
  [1],
  '0x1',
  '1e0',
  '1',
  1.5,
  0,
  -1,
  2 ** 31,
  Number.MAX_SAFE_INTEGER + 2,
  null,
  {},
];
const NOT_IDS_TEXT: unknown[] = [
  'true',
  '[1]',
  '0x1',
  '1e0',
  '+1',
  '-1',
  ' 1',
  '1 ',
  '1.0',
  '0',
  '',
  '1_0',
  '99999999999',
  1,
  true,
];

/** Names that say "id" without being one: client-generated idempotency keys and job handles are strings. */
const NOT_ID_NAMES = new Set(['client_id', 'job_id']);

/** Every named field of a schema, with its path (array elements as 0). */
function namedFields(schema: z.ZodType | undefined, path: (string | number)[] = []): [string, z.ZodType][] {
  if (!schema) return [];
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape).flatMap(([k, v]) => [
      [[...path, k].join('.'), v as z.ZodType] as [string, z.ZodType],
      ...namedFields(v as z.ZodType, [...path, k]),
    ]);
  }
  if (schema instanceof z.ZodArray) return namedFields(schema.element as z.ZodType, [...path, 0]);
  if (schema instanceof z.ZodUnion) return schema.options.flatMap((o) => namedFields(o as z.ZodType, path));
  if (schema instanceof z.ZodPipe) return namedFields(def.in as z.ZodType, path);
  if (def.innerType) return namedFields(def.innerType as z.ZodType, path);
  return [];
}

const calls = Object.entries(api) as [string, CallDef][];

describe('ids are strict', () => {
  it.each(NOT_IDS_JSON.map((v) => [JSON.stringify(v), v]))('a JSON id refuses %s', (_, value) => {
    expect(Id.safeParse(value).success).toBe(false);
  });
  it.each(NOT_IDS_TEXT.map((v) => [JSON.stringify(v), v]))('a text id refuses %s', (_, value) => {
    expect(IdParam.safeParse(value).success).toBe(false);
  });
  it('takes a positive integer as a number in JSON and as digits in text', () => {
    expect(Id.parse(1)).toBe(1);
    expect(Id.parse(2_147_483_647)).toBe(2_147_483_647);
    expect(IdParam.parse('1')).toBe(1);
    expect(IdParam.parse('2147483647')).toBe(2_147_483_647);
  });

  it.each(calls)('%s: every id field is an id, written as the call carries it', (name, call) => {
    for (const part of ['query', 'body'] as const) {
      const schema = call[part];
      // Queries, forms and multipart fields arrive as text; JSON bodies carry numbers.
      const kind = part === 'query' || call.bodyFormat === 'form' || call.bodyFormat === 'multipart' ? 'text' : 'json';
      const ids = idFields(schema);
      for (const f of ids) expect(f.kind, `${name} ${part}.${f.path.join('.')}`).toBe(kind);
      const idPaths = new Set(ids.map((f) => f.path.join('.')));
      for (const [path] of namedFields(schema)) {
        const last = path.split('.').at(-1) ?? '';
        // A question's options are labelled by letters ('A', 'B') and its sub-questions numbered within it
        // (a strict number already): neither is a database id.
        if (/(^|\.)(options|subs)\.0\.id$/.test(path)) continue;
        if (/^(id|anid|ids)$|_ids?$/.test(last) && !NOT_ID_NAMES.has(last)) {
          const asArray = `${path}.0`;
          expect(idPaths.has(path) || idPaths.has(asArray), `${name} ${part}.${path} is an id`).toBe(true);
        }
      }
    }
  });
});
