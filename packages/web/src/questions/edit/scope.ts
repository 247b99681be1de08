/** Where an editor sits: a sub-question's fields are named after it (labels and test ids stay unique). */
import { createContext, useContext } from 'react';

/** The name of the part being edited ('Sub-question 2'), or null at the question's own level. */
export const PartScope = createContext<string | null>(null);

/** A field's label and test id inside the current part. */
export function useScoped(): (label: string, testId: string) => { label: string; testId: string } {
  const part = useContext(PartScope);
  return (label, testId) =>
    part === null ? { label, testId } : { label: `${part} · ${label}`, testId: `sub-${testId}` };
}

/** True when the question is shown, not edited: the text and code editors take no input. */
export const ReadOnly = createContext(false);
