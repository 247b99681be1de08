/**
 * The id fields of a call's input, by the path syntax of the catalogue's `refs` (`a.b`, `list[].c`): what
 * routes/access.test.ts holds every staff call's `scope` and `refs` to, so an id field that nothing checks cannot
 * be added unnoticed. The fields are those the contract's `idFields` finds (every use of its Id schemas).
 */
import { idFields as contractIdFields, type CallDef } from '@examhall/contract';

/** `['list', 0, 'c']` as `list[].c`. */
function pathOf(steps: readonly (string | number)[]): string {
  let out = '';
  for (const step of steps) out += typeof step === 'number' ? '[]' : out === '' ? step : `.${step}`;
  // A list of ids is declared by its field's name (`candidate_ids`), not by its elements.
  return out.endsWith('[]') ? out.slice(0, -2) : out;
}

/** Every id field of a call's query and body, by path. */
export function idFields(call: CallDef): string[] {
  const paths = [...contractIdFields(call.query), ...contractIdFields(call.body)].map((f) => pathOf(f.path));
  return [...new Set(paths)].sort();
}
