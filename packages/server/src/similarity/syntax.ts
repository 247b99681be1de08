/**
 * Source code read by a real parser (tree-sitter, with the grammars the tree-sitter organisation publishes on npm)
 * for the judge languages that have one here: C, C++, Java and Python. One walk of the parse tree gives its
 * structure features: a hash of every subtree of at least `MIN_LEAVES` leaves (names `V`, numbers `N`, strings and
 * characters `S`, primitive types `T`, keywords and operators as written; comments and Python's docstrings
 * dropped), computed in a canonical form so that what a disguise changes does not change it:
 *
 * - names and literals abstracted;
 * - the members of a class and the statements of a block in a canonical order (a block's hash does not depend on
 *   the order of its statements), a declaration apart from its first value (`int x = 1;` as `int x; x = 1;`);
 * - parentheses and braces around one statement seen through, every loop with a condition as a `while` loop (a
 *   `for` loop's initializer before it, its update at the end of its body), `x++`, `x += 1` and `x = x + 1` alike,
 *   the operands of a commutative operator in a canonical order, `a > b` read as `b < a`;
 * - a call to a short function of the file, standing as a statement, also read as the function's body in place.
 *
 * Submissions are compared on these features weighted by rarity (rarity.ts). The matched fragments a grader sees
 * are found on the hand-written lexer's tokens (tokenize.ts, fingerprint.ts), which the API process reads in linear
 * time whatever the code; the parser runs in the worker's job. Grammars load on first use. The walk is iterative
 * (no recursion), so a deeply nested file cannot exhaust the stack.
 */
import { createRequire } from 'node:module';
import type { LanguageId } from '@examhall/contract';
import type TreeSitter from 'tree-sitter';

/** The npm package of each language's grammar. */
const GRAMMARS: Partial<Record<LanguageId, string>> = {
  c: 'tree-sitter-c',
  cpp: 'tree-sitter-cpp',
  java: 'tree-sitter-java',
  python: 'tree-sitter-python',
};

/** Subtrees with fewer leaves than this make no feature (a lone `x = 1` says nothing about who wrote it). */
export const MIN_LEAVES = 6;

/** Whether a language is read by a parser (otherwise by the hand-written lexer of tokenize.ts). */
export function hasGrammar(language: LanguageId): boolean {
  return GRAMMARS[language] !== undefined;
}

const require = createRequire(import.meta.url);
let ParserClass: typeof TreeSitter | undefined;

/** A language's parser, and the names of its node types and fields by id, learnt as they are met. */
interface Reader {
  parser: TreeSitter;
  types: string[];
  fields: string[];
}
const readers = new Map<LanguageId, Reader>();

function readerFor(language: LanguageId): Reader {
  let reader = readers.get(language);
  if (!reader) {
    ParserClass ??= require('tree-sitter') as typeof TreeSitter;
    const parser = new ParserClass();
    parser.setLanguage(require(GRAMMARS[language]!) as TreeSitter.Language);
    reader = { parser, types: [], fields: [] };
    readers.set(language, reader);
  }
  return reader;
}

/** A submission's structure features: feature hash → occurrences. */
export type Features = Map<number, number>;

/**
 * The most time one file's parse may take. Code the grammar cannot make sense of can send the parser's error
 * recovery into seconds (96 KB of `x = 1` lines read as C++ takes 14 s); past this the parse stops and the file is
 * read by the hand-written lexer instead. Real submissions parse in about a millisecond.
 */
export const PARSE_BUDGET_MS = 300;

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);
const STRINGS = new Set([
  'string_literal',
  'character_literal',
  'char_literal',
  'raw_string_literal',
  'concatenated_string',
  'string',
  'system_lib_string',
  'text_block',
]);
const NUMBERS = new Set([
  'number_literal',
  'decimal_integer_literal',
  'hex_integer_literal',
  'octal_integer_literal',
  'binary_integer_literal',
  'decimal_floating_point_literal',
  'hex_floating_point_literal',
  'integer',
  'float',
  'user_defined_literal',
]);
const TYPES = new Set([
  'primitive_type',
  'integral_type',
  'floating_point_type',
  'boolean_type',
  'sized_type_specifier',
]);
/** What a leaf's type reads as (names are every type ending in `identifier`). */
const KIND = new Map<string, 'comment' | 'S' | 'N' | 'T'>([
  ...[...COMMENTS].map((t) => [t, 'comment'] as const),
  ...[...STRINGS].map((t) => [t, 'S'] as const),
  ...[...NUMBERS].map((t) => [t, 'N'] as const),
  ...[...TYPES].map((t) => [t, 'T'] as const),
]);
/** Containers whose children's order carries no meaning a copier must keep: their hash sorts the children. */
const UNORDERED = new Set([
  'program',
  'translation_unit',
  'module',
  'class_body',
  'declaration_list',
  'field_declaration_list',
  'block',
  'compound_statement',
]);
/** Nodes seen through: their one meaningful child stands for them. */
const TRANSPARENT = new Set(['parenthesized_expression', 'expression_statement']);
/** Binary nodes whose operands may swap. */
const BINARY = new Set(['binary_expression', 'binary_operator', 'boolean_operator', 'comparison_operator']);
const COMMUTATIVE = new Set(['+', '*', '==', '!=', '&&', '||', '&', '|', '^', 'and', 'or', 'is']);
const FLIPPED: Record<string, string> = { '>': '<', '>=': '<=' };

/** A 32-bit hash of a label (FNV-1a), cached: labels are few. */
const labelHashes = new Map<string, number>();
function labelHash(text: string): number {
  let h = labelHashes.get(text);
  if (h === undefined) {
    h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h >>>= 0;
    labelHashes.set(text, h);
  }
  return h;
}

/** A subtree's canonical hash in two 32-bit halves (joined into one safe integer for a feature). */
interface Hash {
  h1: number;
  h2: number;
  leaves: number;
  /** The text of a leaf: the normalized token, or the name itself for a name. */
  op?: string;
  /** The field of its parent the node stands in (`condition`, `body`, ...). */
  field?: string;
  /** A block's statements, for the loop and call rewrites. */
  stmts?: Hash[];
  /** An operator node's operator and operands (`x = x + 1` read as `x += 1`). */
  bin?: string;
  parts?: Hash[];
  /** The name a call calls, or a function declares. */
  name?: string;
  /** A block's index among the blocks seen, when it calls a function of the file. */
  block?: number;
}

function combine(label: string, kids: readonly Hash[]): Hash {
  let h1 = labelHash(label);
  let h2 = Math.imul(h1 ^ 0x5bd1e995, 0x27d4eb2d) | 0;
  let leaves = 0;
  for (const k of kids) {
    h1 = (Math.imul(h1, 0x01000193) + k.h1) | 0;
    h2 = (Math.imul(h2 ^ k.h2, 0x5bd1e995) + 0x9e3779b9) | 0;
    leaves += k.leaves;
  }
  return { h1: h1 >>> 0, h2: h2 >>> 0, leaves: Math.max(1, leaves) };
}

const joined = (h: Hash) => h.h1 * 0x200000 + (h.h2 & 0x1fffff);
const order = (x: Hash, y: Hash) => x.h1 - y.h1 || x.h2 - y.h2;
const sameHash = (x: Hash | undefined, y: Hash | undefined) => !!x && !!y && x.h1 === y.h1 && x.h2 === y.h2;
const BRACES = new Set(['{', '}', ';', ':']);
const isBlock = (type: string) => type === 'block' || type === 'compound_statement';
/** A block in canonical form: its statements in hash order. */
const block = (stmts: Hash[]): Hash => ({ ...combine('block', [...stmts].sort(order)), stmts });
const statementsOf = (h: Hash): Hash[] => h.stmts ?? [h];
const ONE: Hash = { h1: labelHash('N'), h2: Math.imul(labelHash('N'), 0x2545f491) >>> 0, leaves: 1, op: 'N' };
const ASSIGNMENTS = new Set(['assignment_expression', 'assignment', 'augmented_assignment']);
const CALLS = new Set(['method_invocation', 'call_expression', 'call']);
const LOOPS = new Set(['for_statement', 'while_statement', 'do_statement']);
const FUNCTIONS = new Set(['method_declaration', 'function_definition']);
const DECLARATORS = new Set(['variable_declarator', 'init_declarator']);
const DECLARATIONS = new Set(['local_variable_declaration', 'declaration']);
const WITH_FIELDS = new Set([...LOOPS, ...DECLARATORS, ...DECLARATIONS, ...CALLS, ...FUNCTIONS, 'function_declarator']);

/**
 * The hash of a node from its children's, in the canonical form. Answers the node's hash and the hashes its
 * parent takes before it (a `for` loop's initializer, which a `while` loop writes as the statement before it).
 */
function nodeHash(type: string, kids: Hash[]): { own: Hash; before?: Hash[]; carried?: Hash[] } {
  const field = (name: string) => kids.find((k) => k.field === name);
  if (TRANSPARENT.has(type)) {
    const inner = kids.filter((k) => k.op === undefined || !'();'.includes(k.op));
    if (inner.length === 1) return { own: inner[0]! };
  }
  if (isBlock(type)) {
    const stmts = kids.filter((k) => k.op === undefined || !BRACES.has(k.op));
    // A block of one statement reads as that statement (`if (c) x;` and `if (c) { x; }` alike).
    if (stmts.length === 1) return { own: { ...stmts[0]!, stmts } };
    return { own: block(stmts) };
  }
  if (UNORDERED.has(type)) return { own: combine(type, [...kids].sort(order)) };
  // Every loop with a condition as `while (condition) { body; update }`, the initializer before it.
  if (LOOPS.has(type) && field('condition') && field('body')) {
    const updates = kids.filter((k) => k.field === 'update');
    const body = block([...statementsOf(field('body')!), ...updates]);
    const carried = kids.filter((k) => k.op === undefined && !['condition', 'body', 'update'].includes(k.field ?? ''));
    return { own: combine('loop', [field('condition')!, body]), carried };
  }
  // `T x = e, y;` as `T x; x = e; T y;`, so a declaration moved away from its first value keeps its match.
  if (DECLARATORS.has(type)) {
    const name = field('name') ?? field('declarator');
    const value = field('value');
    if (name) return { own: { ...combine(type, kids), parts: value ? [name, value] : [name] } };
  }
  if (DECLARATIONS.has(type) && field('type')) {
    const declared = field('type')!;
    const stmts = kids
      .filter((k) => k.field === 'declarator')
      .flatMap((d) => {
        const [name, value] = d.parts ?? [d];
        const decl = combine('declare', [declared, name!]);
        return value ? [decl, assign('', name!, value)] : [decl];
      });
    if (stmts.length > 0) return { own: stmts[stmts.length - 1]!, before: stmts.slice(0, -1) };
  }
  if (type === 'update_expression') {
    const target = kids.find((k) => k.op !== '++' && k.op !== '--');
    const op = kids.find((k) => k.op === '++' || k.op === '--')?.op;
    if (target && op) return { own: assign(op[0]!, target, ONE) };
  }
  if (ASSIGNMENTS.has(type) && kids.length === 3 && kids[1]!.op !== undefined) {
    const [left, opHash, right] = kids as [Hash, Hash, Hash];
    const op = opHash.op!;
    if (op.length >= 2 && op.endsWith('=') && op !== '==') return { own: assign(op.slice(0, -1), left, right) };
    if (op === '=' && !right.bin) return { own: assign('', left, right) };
    if (op === '=' && right.bin && right.parts) {
      const [x, y] = right.parts as [Hash, Hash];
      if (sameHash(x, left)) return { own: assign(right.bin, left, y) };
      if (sameHash(y, left) && COMMUTATIVE.has(right.bin)) return { own: assign(right.bin, left, x) };
    }
  }
  if (BINARY.has(type) && kids.length === 3 && kids[1]!.op !== undefined) {
    const op = kids[1]!.op;
    const flipped = FLIPPED[op];
    if (flipped) return { own: { ...combine(`${type}${flipped}`, [kids[2]!, kids[0]!]), bin: flipped } };
    let parts = [kids[0]!, kids[2]!];
    if (COMMUTATIVE.has(op) && order(kids[0]!, kids[2]!) > 0) parts = [kids[2]!, kids[0]!];
    return { own: { ...combine(`${type}${op}`, parts), bin: op, parts: [kids[0]!, kids[2]!] } };
  }
  const own = combine(type, kids);
  if (CALLS.has(type)) own.name = (field('name') ?? field('function'))?.name;
  if (type === 'function_declarator') own.name = field('declarator')?.name;
  if (FUNCTIONS.has(type)) {
    own.name = (field('name') ?? field('declarator'))?.name;
    own.stmts = field('body') && statementsOf(field('body')!);
  }
  return { own };
}

/** `target op= value` (`x++` is `x += 1`, `x = x + y` is `x += y`). */
function assign(op: string, target: Hash, value: Hash): Hash {
  return combine(`assign${op}`, [target, value]);
}

/** A string standing alone as a statement (a docstring, or a string that does nothing). */
function isLoneString(node: TreeSitter.SyntaxNode): boolean {
  return node.namedChildCount === 1 && node.namedChildren[0]!.type === 'string' && node.childCount === 1;
}

/** Most statements a function may have for a call to it to be read as its body written in place. */
const INLINE_STATEMENTS = 12;

/** A literal's value as a feature: strings lowercased with their spacing collapsed. */
function literalFeature(kind: string, text: string): number {
  const value = kind === 'S' ? text.toLowerCase().replace(/\s+/g, ' ') : text.toLowerCase();
  return joined(combine(`${kind}:${value}`, []));
}

/**
 * Parses `source` and walks its tree once: its structure features, or null when the parse ran past
 * `PARSE_BUDGET_MS`. Besides the structure, each string and number literal's value is a feature (`literals`, on
 * unless turned off to measure what the structure alone tells): a value every candidate writes weighs nothing, one
 * two candidates share weighs much.
 */
export function parse(source: string, language: LanguageId, literals = true): Features | null {
  const reader = readerFor(language);
  const deadline = performance.now() + PARSE_BUDGET_MS;
  let tree: TreeSitter.Tree | undefined;
  try {
    tree = reader.parser.parse(source, undefined, {
      bufferSize: Math.max(32 * 1024, source.length * 2 + 16),
      progressCallback: () => performance.now() > deadline,
    });
  } finally {
    // A parse stopped midway leaves the parser ready for the next one only once reset.
    if (!tree) reader.parser.reset();
  }
  if (!tree) return null;
  const features = new Map<number, number>();
  const add = (key: number) => features.set(key, (features.get(key) ?? 0) + 1);
  const functions = new Map<string, Hash[]>();
  const callers: Hash[][] = [];
  const cursor = tree.walk();
  // Each property read crosses into the addon: types and fields are read by id, their names cached per language.
  const typeOf = () => {
    const id = cursor.nodeTypeId;
    return (reader.types[id] ??= cursor.nodeType);
  };
  const fieldOf = () => {
    // Only the nodes nodeHash reads fields of ask which field each child stands in.
    if (!WITH_FIELDS.has(frames[frames.length - 1]!.type)) return undefined;
    const id = cursor.currentFieldId;
    return id ? (reader.fields[id] ??= cursor.currentFieldName) : undefined;
  };
  // One frame per open node: its type and its children's hashes so far.
  const frames: { type: string; kids: Hash[] }[] = [{ type: '', kids: [] }];
  const leaf = (text: string, name?: string) => {
    const h = labelHash(text);
    const kid = { h1: h, h2: Math.imul(h, 0x2545f491) >>> 0, leaves: 1, op: text, field: fieldOf(), name };
    frames[frames.length - 1]!.kids.push(kid);
  };
  for (;;) {
    const type = typeOf();
    const kind = KIND.get(type) ?? (type.endsWith('identifier') ? 'V' : undefined);
    let descend = false;
    if (kind === 'comment') {
      // dropped
    } else if (language === 'python' && type === 'expression_statement' && isLoneString(cursor.currentNode)) {
      // a docstring: dropped like a comment
    } else if (kind === 'S' || kind === 'N') {
      leaf(kind);
      if (literals) add(literalFeature(kind, source.slice(cursor.startIndex, cursor.endIndex)));
    } else if (kind === 'T') leaf('T');
    else if (kind === 'V') {
      // A name's text is read only where a call or a function is named.
      const named = WITH_FIELDS.has(frames[frames.length - 1]!.type);
      leaf('V', named ? source.slice(cursor.startIndex, cursor.endIndex) : undefined);
    } else if (cursor.gotoFirstChild()) {
      frames.push({ type, kids: [] });
      descend = true;
    } else if (type !== '') {
      // Any other leaf by its type: an operator or keyword is its text, `true`, `this` or `null_literal` alike.
      leaf(type);
    }
    if (descend) continue;
    // Up until a sibling: each node left is closed, its hash given to its parent.
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        inlineCalls(functions, callers, add);
        return features;
      }
      const frame = frames.pop()!;
      const { own, before, carried } = nodeHash(frame.type, frame.kids);
      if (own.leaves >= MIN_LEAVES && !frame.kids.some((k) => sameHash(k, own))) add(joined(own));
      if (FUNCTIONS.has(frame.type) && own.name && own.stmts) functions.set(own.name, own.stmts);
      if (isBlock(frame.type) && own.stmts?.some((st) => st.name !== undefined)) callers.push(own.stmts);
      const parent = frames[frames.length - 1]!.kids;
      if (before) {
        for (const b of before) if (b.leaves >= MIN_LEAVES) add(joined(b));
        parent.push(...before);
      }
      if (carried) parent.push(...carried);
      parent.push({ ...own, field: fieldOf() });
    }
  }
}

/**
 * A call to a short function of the file, standing as a statement, read as the function's body written in place:
 * each block making such calls adds the feature of the block it would be with the bodies in place, so moving
 * code into a function of its own (or back) keeps the block's match.
 */
function inlineCalls(functions: Map<string, Hash[]>, callers: Hash[][], add: (key: number) => void): void {
  for (const stmts of callers) {
    let changed = false;
    const inlined = stmts.flatMap((st) => {
      const body = st.name === undefined ? undefined : functions.get(st.name);
      if (!body || body.length > INLINE_STATEMENTS || body === stmts) return [st];
      changed = true;
      return body;
    });
    if (changed) add(joined(block(inlined)));
  }
}
