/** The programming languages of seed point 9, each with its editor mode. */

/** One language the exam editor offers. */
export interface LanguageInfo {
  /** Stable id used in answers and by the judge. */
  id: string;
  /** Name shown to the candidate. */
  name: string;
  /** Editor (syntax) mode. */
  mode: string;
}

/** The 21 languages, in the order of the specification. */
export const LANGUAGES = [
  { id: 'c', name: 'C', mode: 'c' },
  { id: 'cpp', name: 'C++', mode: 'cpp' },
  { id: 'java', name: 'Java', mode: 'java' },
  { id: 'python', name: 'Python', mode: 'python' },
  { id: 'php', name: 'PHP', mode: 'php' },
  { id: 'javascript', name: 'JavaScript', mode: 'javascript' },
  { id: 'go', name: 'Go', mode: 'go' },
  { id: 'csharp', name: 'C#', mode: 'csharp' },
  { id: 'ruby', name: 'Ruby', mode: 'ruby' },
  { id: 'rust', name: 'Rust', mode: 'rust' },
  { id: 'haskell', name: 'Haskell', mode: 'haskell' },
  { id: 'pascal', name: 'Pascal', mode: 'pascal' },
  { id: 'basic', name: 'Basic', mode: 'vb' },
  { id: 'plaintext', name: 'plaintext', mode: 'text' },
  { id: 'perl', name: 'Perl', mode: 'perl' },
  { id: 'bash', name: 'Bash', mode: 'shell' },
  { id: 'coffeescript', name: 'CoffeeScript', mode: 'coffeescript' },
  { id: 'julia', name: 'Julia', mode: 'julia' },
  { id: 'dart', name: 'Dart', mode: 'dart' },
  { id: 'lua', name: 'Lua', mode: 'lua' },
  { id: 'ocaml', name: 'OCaml', mode: 'ocaml' },
] as const satisfies readonly LanguageInfo[];

/** A language id. */
export type LanguageId = (typeof LANGUAGES)[number]['id'];

/** Every language id, in specification order. */
export const LANGUAGE_IDS = LANGUAGES.map((l) => l.id) as [LanguageId, ...LanguageId[]];
