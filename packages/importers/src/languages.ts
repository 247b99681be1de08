/** Programming language names as files write them (FPS, file extensions, sheets), mapped to the judge's ids. */
import { LANGUAGES, type LanguageId } from '@examhall/contract';

/** The extension of a source file per language (what the problem zip writes). */
export const SOURCE_EXTENSION: Record<LanguageId, string> = {
  c: 'c',
  cpp: 'cpp',
  java: 'java',
  python: 'py',
  php: 'php',
  javascript: 'js',
  go: 'go',
  csharp: 'cs',
  ruby: 'rb',
  rust: 'rs',
  haskell: 'hs',
  pascal: 'pas',
  basic: 'bas',
  plaintext: 'txt',
  perl: 'pl',
  bash: 'sh',
  coffeescript: 'coffee',
  julia: 'jl',
  dart: 'dart',
  lua: 'lua',
  ocaml: 'ml',
};

/** Names other systems use (HUSTOJ's FPS names, compilers, extensions), lower case. */
const ALIASES: Record<string, LanguageId> = {
  'c++': 'cpp',
  'g++': 'cpp',
  'clang++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  'c++11': 'cpp',
  'c++14': 'cpp',
  'c++17': 'cpp',
  'c++20': 'cpp',
  gcc: 'c',
  clang: 'c',
  python3: 'python',
  python2: 'python',
  py: 'python',
  py3: 'python',
  pypy: 'python',
  pypy3: 'python',
  'c#': 'csharp',
  cs: 'csharp',
  js: 'javascript',
  node: 'javascript',
  nodejs: 'javascript',
  golang: 'go',
  freepascal: 'pascal',
  fpc: 'pascal',
  pas: 'pascal',
  freebasic: 'basic',
  bas: 'basic',
  vb: 'basic',
  rb: 'ruby',
  rs: 'rust',
  hs: 'haskell',
  pl: 'perl',
  sh: 'bash',
  shell: 'bash',
  coffee: 'coffeescript',
  jl: 'julia',
  ml: 'ocaml',
  txt: 'plaintext',
  text: 'plaintext',
};

/** The judge's id for a language name, id or extension (case does not matter), or null. */
export function languageOf(name: string): LanguageId | null {
  const n = name.trim().toLowerCase();
  const known = LANGUAGES.find((l) => l.id === n || l.name.toLowerCase() === n);
  return known?.id ?? ALIASES[n] ?? null;
}

/** The name FPS and people use for a language (`C++`, `Python`). */
export function languageName(id: LanguageId): string {
  return LANGUAGES.find((l) => l.id === id)!.name;
}
