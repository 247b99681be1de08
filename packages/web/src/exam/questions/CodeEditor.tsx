import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import type { LanguageId } from '@examhall/contract';
import { useEffect, useRef } from 'react';
import { accessibleHighlightStyle } from './highlight.js';
import { languageSupport } from './languages.js';

interface Props {
  language: LanguageId;
  /** The code; when it differs from the editor's text (a language switch put a template in), the editor takes it. */
  code: string;
  onChange: (code: string) => void;
  onPasteBlocked: (() => void) | null;
  /** Ctrl+Enter (⌘+Enter on a Mac): runs the code; without it the key inserts a line as usual. */
  onRun?: () => void;
  label: string;
  /** Shown, not edited (a question viewed without the right to change it). */
  readOnly?: boolean;
}

/** CodeMirror 6, loaded only on programming questions; the language mode is loaded on demand too. */
export default function CodeEditor({
  language,
  code,
  onChange,
  onPasteBlocked,
  onRun,
  label,
  readOnly = false,
}: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const labelSlot = useRef(new Compartment());
  const callbacks = useRef({ onChange, onPasteBlocked, onRun });
  useEffect(() => {
    callbacks.current = { onChange, onPasteBlocked, onRun };
  });

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: code,
        extensions: [
          lineNumbers(),
          history(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(accessibleHighlightStyle, { fallback: true }),
          // Ahead of the default keymap, whose Mod-Enter inserts a blank line.
          Prec.highest(
            keymap.of([
              {
                key: 'Mod-Enter',
                run: () => {
                  const run = callbacks.current.onRun;
                  if (!run) return false;
                  run();
                  return true;
                },
              },
            ]),
          ),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          languageSlot.current.of([]),
          ...(readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []),
          labelSlot.current.of(EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'code-editor' })),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callbacks.current.onChange(u.state.doc.toString());
          }),
          EditorView.domEventHandlers({
            paste: (e) => {
              const blocked = callbacks.current.onPasteBlocked;
              if (!blocked) return false;
              e.preventDefault();
              blocked();
              return true;
            },
            drop: (e) => {
              const blocked = callbacks.current.onPasteBlocked;
              if (!blocked) return false;
              e.preventDefault();
              blocked();
              return true;
            },
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once per question; later code and label changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== code) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: code } });
    }
  }, [code]);

  // The name follows the label: it names the language, which the author or candidate may switch.
  useEffect(() => {
    view.current?.dispatch({
      effects: labelSlot.current.reconfigure(
        EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'code-editor' }),
      ),
    });
  }, [label]);

  useEffect(() => {
    let cancelled = false;
    void languageSupport(language).then((ext) => {
      if (!cancelled) view.current?.dispatch({ effects: languageSlot.current.reconfigure(ext) });
    });
    return () => {
      cancelled = true;
    };
  }, [language]);

  return <div ref={host} className="code-editor" />;
}
