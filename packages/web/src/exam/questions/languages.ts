/** Editor modes of the contract's languages, each loaded only when a question needs it. */
import type { LanguageId } from '@examhall/contract';
import type { StreamParser } from '@codemirror/language';
import type { Extension } from '@codemirror/state';

async function legacy(load: () => Promise<StreamParser<unknown>>) {
  const [{ StreamLanguage }, mode] = await Promise.all([import('@codemirror/language'), load()]);
  return StreamLanguage.define(mode);
}

/** The syntax support of a language; plain text has none. */
export async function languageSupport(id: LanguageId): Promise<Extension> {
  switch (id) {
    case 'c':
    case 'cpp':
      return (await import('@codemirror/lang-cpp')).cpp();
    case 'java':
      return (await import('@codemirror/lang-java')).java();
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'php':
      return (await import('@codemirror/lang-php')).php({ plain: false });
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'go':
      return (await import('@codemirror/lang-go')).go();
    case 'rust':
      return (await import('@codemirror/lang-rust')).rust();
    case 'csharp':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).csharp);
    case 'dart':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).dart);
    case 'ruby':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/ruby')).ruby);
    case 'haskell':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/haskell')).haskell);
    case 'pascal':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/pascal')).pascal);
    case 'basic':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/vb')).vb);
    case 'perl':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/perl')).perl);
    case 'bash':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/shell')).shell);
    case 'coffeescript':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/coffeescript')).coffeeScript);
    case 'julia':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/julia')).julia);
    case 'lua':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/lua')).lua);
    case 'ocaml':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/mllike')).oCaml);
    case 'plaintext':
      return [];
  }
}
