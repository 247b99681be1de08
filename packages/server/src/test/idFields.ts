/**
 * The id fields of a call's input schemas, by path (`a.b`, `list[].c`): what routes/access.test.ts holds every
 * staff call's `scope` and `refs` to, so an id field that nothing checks cannot be added unnoticed.
 */
import type { CallDef } from '@examhall/contract';

/** A field name that holds ids: `id`, `*_id`, `*_ids`. */
const ID_NAME = /(^|_)ids?$/;

interface ZodDefLike {
  type?: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  innerType?: unknown;
  in?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
  valueType?: unknown;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  const s = schema as { _zod?: { def?: ZodDefLike } } | undefined;
  return s?._zod?.def;
}

function walk(schema: unknown, path: string, out: Set<string>): void {
  const def = defOf(schema);
  if (!def) return;
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        const at = path ? `${path}.${key}` : key;
        if (ID_NAME.test(key)) out.add(at);
        else walk(value, at, out);
      }
      return;
    case 'array':
      walk(def.element, `${path}[]`, out);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      walk(def.innerType, path, out);
      return;
    case 'pipe':
      walk(def.in, path, out);
      return;
    case 'union':
      for (const option of def.options ?? []) walk(option, path, out);
      return;
    case 'intersection':
      walk(def.left, path, out);
      walk(def.right, path, out);
      return;
    case 'record':
      walk(def.valueType, `${path}{}`, out);
      return;
    default:
      return;
  }
}

/** Every id field of a call's query and body, by path. */
export function idFields(call: CallDef): string[] {
  const out = new Set<string>();
  walk(call.query, '', out);
  walk(call.body, '', out);
  return [...out].sort();
}
