/**
 * Editing the options of a choice question without breaking its key: options are always lettered
 * A, B, C… in the order shown, and every change (add, remove, move) rewrites the key's letters with them.
 * Framework-free so it is tested on its own.
 */
import { OPTION_COUNT, OPTION_IDS } from '@examhall/contract';

/** An option as stored. */
export interface EditableOption {
  id: string;
  content: string;
}

/** The key fields that name options: the right one, the right ones, or points per option. */
export interface OptionKeyFields {
  option?: string;
  options?: string[];
  scores?: Partial<Record<string, number>>;
}

/** The options and key of a choice question (or of a choice sub-question). */
export interface OptionState<K extends OptionKeyFields = OptionKeyFields> {
  options: EditableOption[];
  key: K;
}

/** The letter of the option at `index` ('A' for 0). */
export function optionLetter(index: number): string {
  return OPTION_IDS[index] ?? String.fromCharCode(65 + index);
}

/**
 * Puts the options in a new order given as their current ids (ids left out are removed), letters them
 * again from A, and rewrites the key to the new letters; a removed right option leaves the key without it.
 */
export function reorderOptions<K extends OptionKeyFields>(
  state: OptionState<K>,
  order: readonly string[],
): OptionState<K> {
  const byId = new Map(state.options.map((o) => [o.id, o]));
  const kept = order.filter((id) => byId.has(id));
  const rename = new Map(kept.map((id, i) => [id, optionLetter(i)]));
  const options = kept.map((id) => ({ ...byId.get(id)!, id: rename.get(id)! }));
  const key: K = { ...state.key };
  if (state.key.option !== undefined) {
    const to = rename.get(state.key.option);
    if (to === undefined) delete key.option;
    else key.option = to;
  }
  if (state.key.options !== undefined) {
    key.options = state.key.options
      .map((id) => rename.get(id))
      .filter((id): id is string => id !== undefined)
      .sort();
  }
  if (state.key.scores !== undefined) {
    const scores: Partial<Record<string, number>> = {};
    for (const [id, points] of Object.entries(state.key.scores)) {
      const to = rename.get(id);
      if (to !== undefined) scores[to] = points;
    }
    key.scores = scores;
  }
  return { options, key };
}

/** Removes option `id`; the options after it move up a letter and the key follows them. */
export function removeOption<K extends OptionKeyFields>(state: OptionState<K>, id: string): OptionState<K> {
  return reorderOptions(
    state,
    state.options.map((o) => o.id).filter((x) => x !== id),
  );
}

/** Moves option `id` by `delta` places (−1 up, +1 down); a move past either end changes nothing. */
export function moveOption<K extends OptionKeyFields>(
  state: OptionState<K>,
  id: string,
  delta: number,
): OptionState<K> {
  const ids = state.options.map((o) => o.id);
  const from = ids.indexOf(id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= ids.length) return state;
  ids.splice(from, 1);
  ids.splice(to, 0, id);
  return reorderOptions(state, ids);
}

/** Moves option `id` to where option `target` is (a drag and drop). */
export function dropOption<K extends OptionKeyFields>(
  state: OptionState<K>,
  id: string,
  target: string,
): OptionState<K> {
  const ids = state.options.map((o) => o.id);
  const from = ids.indexOf(id);
  const to = ids.indexOf(target);
  if (from < 0 || to < 0 || from === to) return state;
  return moveOption(state, id, to - from);
}

/** Whether another option may be added. */
export function canAddOption(state: OptionState): boolean {
  return state.options.length < OPTION_COUNT.max;
}

/** Adds an empty option at the end (with 0 points when the key gives points per option). */
export function addOption<K extends OptionKeyFields>(state: OptionState<K>): OptionState<K> {
  if (!canAddOption(state)) return state;
  const id = optionLetter(state.options.length);
  const key: K =
    state.key.scores !== undefined ? { ...state.key, scores: { ...state.key.scores, [id]: 0 } } : state.key;
  return { options: [...state.options, { id, content: '' }], key };
}

/** Marks option `id` right or not: the only right one for a single pick, one of several for a multiple pick. */
export function markRight<K extends OptionKeyFields>(
  state: OptionState<K>,
  id: string,
  right: boolean,
  multiple: boolean,
): OptionState<K> {
  if (!multiple) {
    const key: K = { ...state.key };
    if (right) key.option = id;
    else if (key.option === id) delete key.option;
    return { ...state, key };
  }
  const order = state.options.map((o) => o.id);
  const set = new Set(state.key.options ?? []);
  if (right) set.add(id);
  else set.delete(id);
  return { ...state, key: { ...state.key, options: order.filter((x) => set.has(x)) } };
}
