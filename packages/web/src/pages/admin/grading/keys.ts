import { useEffect, useRef } from 'react';

/** True when a key press belongs to a text field (the comment, a number box), not to the page's shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT';
}

/**
 * Page shortcuts while the component is shown: `handlers` by `KeyboardEvent.key` (lower case for letters).
 * A key typed into a text field is left to it, except the keys in `alsoInFields` (Enter in a number box).
 */
export function useShortcuts(handlers: Record<string, () => void>, alsoInFields: readonly string[] = []): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const inField = typingIn(e.target);
      if (inField && !(alsoInFields.includes(key) && (e.target as HTMLElement).tagName === 'INPUT')) return;
      const run = latest.current[key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [alsoInFields]);
}
