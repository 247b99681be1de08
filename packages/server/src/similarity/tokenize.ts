/**
 * Source code to a normalized token stream, per language family, for the similarity fingerprints.
 *
 * Comments and whitespace are dropped; identifiers that are not keywords become `V`, number literals `N`
 * and string or character literals `S`; keywords, operators and punctuation stay as written (lowercased in
 * the case-insensitive languages). Renaming identifiers, changing literals' values, reformatting and
 * commenting therefore leave the stream as it was. Each token keeps where it stands in the source (1-based
 * lines and columns, the end inclusive), so matched stretches can be shown.
 */
import type { LanguageId } from '@examhall/contract';

/** One token of the normalized stream, with where it stands in the source. */
export interface Token {
  /** The normalized text: a keyword, an operator, or `V` (identifier), `N` (number), `S` (string). */
  text: string;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

/** How one family of languages writes comments, strings and names. */
interface Family {
  lineComments: readonly string[];
  blockComments: readonly (readonly [string, string])[];
  /** Quote characters of one-line strings (a backslash escapes). */
  quotes: string;
  /** Delimiters of strings that may span lines (Python's triple quotes, Go's and JavaScript's backticks). */
  longStrings: readonly string[];
  /** A long string standing alone on its line is a docstring: dropped like a comment. */
  docstrings?: boolean;
  /** Characters that may continue an identifier besides letters, digits and `_`. */
  identExtra: string;
  /** Characters that may start an identifier besides letters and `_` (sigils such as `$` and `@`). */
  identStart: string;
  caseInsensitive?: boolean;
  /** A quote followed by a name and no closing quote right after it is a lifetime (Rust's `'a`), not a character. */
  lifetimes?: boolean;
  /** Plain text: words are kept as written (lowercased), not normalized to `V`. */
  keepWords?: boolean;
  keywords: ReadonlySet<string>;
}

const words = (...lists: string[]) => new Set(lists.join(' ').split(/\s+/).filter(Boolean));

const C_BASE =
  'if else for while do switch case default break continue return goto struct union enum typedef sizeof static const ' +
  'extern volatile register void char short int long float double signed unsigned bool true false auto inline';
const CPP =
  'class public private protected virtual override template typename namespace using new delete this operator ' +
  'friend try catch throw nullptr const_cast static_cast dynamic_cast reinterpret_cast constexpr noexcept explicit ' +
  'mutable decltype';
const JAVA =
  'class interface extends implements public private protected abstract final native synchronized transient ' +
  'new this super try catch finally throw throws import package instanceof null byte boolean var record';
const JS =
  'function var let const new this class extends super import export from try catch finally throw typeof ' +
  'instanceof in of null undefined async await yield delete';
const GO =
  'package import func var const type struct interface map chan go defer select range fallthrough nil make len ' +
  'append';
const CSHARP =
  'class interface public private protected internal static new this base try catch finally throw using namespace ' +
  'null var foreach in out ref readonly override virtual abstract sealed string object decimal byte';
const RUST =
  'fn let mut impl trait pub use mod crate self Self match loop in as where ref move dyn unsafe struct enum type ' +
  'i32 i64 u32 u64 usize isize f64 f32';
const DART = 'class extends implements new final var late required import void null this super try catch in is';
const PHP = 'function echo print array class new public private null foreach as fn';
const PY =
  'and as assert async await break class continue def del elif else except finally for from global if import in ' +
  'is lambda nonlocal not or pass raise return try while with yield None True False';
const RUBY =
  'def end if elsif else unless while until for in do begin rescue ensure return yield class module self nil true ' +
  'false and or not then case when break next puts';
const PERL = 'my our sub if elsif else unless while until for foreach return last next print local use';
const BASH = 'if then elif else fi for while until do done case esac function in return local echo read';
const JULIA = 'function end if elseif else for while in return local global begin let do struct mutable nothing';
const COFFEE = 'if else unless then for in of while until loop return class new is isnt not and or true false null';
const LUA =
  'and break do else elseif end false for function goto if in local nil not or repeat return then true until while';
const HASKELL = 'case class data deriving do else if import in infix instance let module newtype of then type where';
const PASCAL =
  'program begin end var const type procedure function if then else for to downto do while repeat until case of ' +
  'and or not div mod array record integer int64 longint string boolean readln writeln read write';
const BASIC = 'dim as if then else elseif end for to step next while wend do loop sub function return print input';
const OCAML = 'let rec in if then else match with fun function type of begin end for to do done while mutable and';

const C_LIKE = { quotes: `"'`, identExtra: '', identStart: '' } as const;
const SLASH_COMMENTS = { lineComments: ['//'], blockComments: [['/*', '*/']] } as const;

const cLike = (...kw: string[]): Family => ({
  ...C_LIKE,
  ...SLASH_COMMENTS,
  longStrings: [],
  keywords: words(C_BASE, ...kw),
});

const FAMILIES: Record<LanguageId, Family> = {
  c: cLike(),
  cpp: cLike(CPP),
  java: cLike(JAVA),
  csharp: cLike(CSHARP),
  javascript: { ...cLike(JS), longStrings: ['`'], identStart: '$', identExtra: '$' },
  go: { ...cLike(GO), longStrings: ['`'] },
  rust: { ...cLike(RUST), lifetimes: true },
  dart: { ...cLike(DART), longStrings: ["'''", '"""'] },
  php: { ...cLike(PHP), lineComments: ['//', '#'], identStart: '$' },
  python: hashFamily(PY, { longStrings: ['"""', "'''"], docstrings: true }),
  ruby: hashFamily(RUBY, { blockComments: [['=begin', '=end']], identStart: '@$', identExtra: '?!' }),
  perl: hashFamily(PERL, { identStart: '$@%' }),
  bash: hashFamily(BASH, { identStart: '$' }),
  julia: hashFamily(JULIA, { blockComments: [['#=', '=#']], longStrings: ['"""'], docstrings: true, identExtra: '!' }),
  coffeescript: hashFamily(COFFEE, { blockComments: [['###', '###']], longStrings: ['"""', "'''"] }),
  lua: {
    lineComments: ['--'],
    blockComments: [['--[[', ']]']],
    quotes: `"'`,
    longStrings: ['[['],
    identExtra: '',
    identStart: '',
    keywords: words(LUA),
  },
  haskell: {
    lineComments: ['--'],
    blockComments: [['{-', '-}']],
    quotes: '"',
    longStrings: [],
    identExtra: "'",
    identStart: '',
    keywords: words(HASKELL),
  },
  ocaml: {
    lineComments: [],
    blockComments: [['(*', '*)']],
    quotes: '"',
    longStrings: [],
    identExtra: "'",
    identStart: '',
    keywords: words(OCAML),
  },
  pascal: {
    lineComments: ['//'],
    blockComments: [
      ['{', '}'],
      ['(*', '*)'],
    ],
    quotes: "'",
    longStrings: [],
    identExtra: '',
    identStart: '',
    caseInsensitive: true,
    keywords: words(PASCAL),
  },
  basic: {
    lineComments: ["'", 'rem ', 'REM ', 'Rem '],
    blockComments: [],
    quotes: '"',
    longStrings: [],
    identExtra: '$%',
    identStart: '',
    caseInsensitive: true,
    keywords: words(BASIC),
  },
  plaintext: {
    lineComments: [],
    blockComments: [],
    quotes: '',
    longStrings: [],
    identExtra: '',
    identStart: '',
    caseInsensitive: true,
    keepWords: true,
    keywords: new Set(),
  },
};

function hashFamily(keywords: string, extra: Partial<Family>): Family {
  return {
    lineComments: ['#'],
    blockComments: [],
    quotes: `"'`,
    longStrings: [],
    identExtra: '',
    identStart: '',
    keywords: words(keywords),
    ...extra,
  };
}

/** Operators read as one token, longest first. */
const OPERATORS = [
  '>>>=',
  '<<=',
  '>>=',
  '===',
  '!==',
  '**=',
  '//=',
  '...',
  '<=>',
  '->',
  '=>',
  '::',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '**',
  '//',
  ':=',
  '..',
  '<-',
  '??',
  '?.',
];

/** Whether the similarity tokenizer knows a language (every language of the contract). */
export function isSimilarityLanguage(language: string): language is LanguageId {
  return Object.hasOwn(FAMILIES, language);
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isLetter = (c: string) => /[\p{L}_]/u.test(c);
const isWordChar = (c: string) => /[\p{L}\p{N}_]/u.test(c);

/** The normalized tokens of `source` written in `language`. */
export function tokenize(source: string, language: LanguageId): Token[] {
  const f = FAMILIES[language];
  const tokens: Token[] = [];
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const where = (offset: number): [number, number] => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - lineStarts[lo]! + 1];
  };
  const push = (text: string, start: number, end: number) => {
    const [line, col] = where(start);
    const [endLine, endCol] = where(end - 1);
    tokens.push({ text, line, col, endLine, endCol });
  };
  const onlySpaceBefore = (i: number) => {
    for (let j = i - 1; j >= 0 && source[j] !== '\n'; j--) if (source[j] !== ' ' && source[j] !== '\t') return false;
    return true;
  };
  const startsWith = (s: string, i: number) =>
    f.caseInsensitive ? source.slice(i, i + s.length).toLowerCase() === s.toLowerCase() : source.startsWith(s, i);

  let i = 0;
  const n = source.length;
  outer: while (i < n) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    for (const [open, close] of f.blockComments) {
      if (startsWith(open, i)) {
        const end = source.indexOf(close, i + open.length);
        i = end < 0 ? n : end + close.length;
        continue outer;
      }
    }
    for (const lc of f.lineComments) {
      // A word-like comment marker (BASIC's REM) only at the start of a statement.
      if (startsWith(lc, i) && (!isLetter(lc[0]!) || onlySpaceBefore(i))) {
        const end = source.indexOf('\n', i);
        i = end < 0 ? n : end;
        continue outer;
      }
    }
    for (const delim of f.longStrings) {
      if (source.startsWith(delim, i)) {
        const close = delim === '[[' ? ']]' : delim;
        const found = source.indexOf(close, i + delim.length);
        const end = found < 0 ? n : found + close.length;
        if (!(f.docstrings && onlySpaceBefore(i) && /^[ \t]*(\r?\n|$)/.test(source.slice(end)))) push('S', i, end);
        i = end;
        continue outer;
      }
    }
    const lifetime = f.lifetimes && c === "'" && isLetter(source[i + 1] ?? '') && source[i + 2] !== "'";
    if (f.quotes.includes(c) && !lifetime) {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      if (j < n && source[j] === c) {
        push('S', i, j + 1);
        i = j + 1;
        continue;
      }
      // No closing quote on the line (a Rust lifetime, an OCaml type variable): the quote is punctuation.
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && (isWordChar(source[j]!) || (source[j] === '.' && isDigit(source[j + 1] ?? '')))) j++;
      push('N', i, j);
      i = j;
      continue;
    }
    if (isLetter(c) || f.identStart.includes(c)) {
      let j = i + 1;
      while (j < n && (isWordChar(source[j]!) || f.identExtra.includes(source[j]!))) j++;
      const word = source.slice(i, j);
      const key = f.caseInsensitive ? word.toLowerCase() : word;
      push(f.keepWords ? key : f.keywords.has(key) ? key : 'V', i, j);
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    const len = op ? op.length : 1;
    push(source.slice(i, i + len), i, i + len);
    i += len;
  }
  return tokens;
}
