import { useEffect, useRef } from 'react';

/** True when a key press belongs to a text field (the comment, a number box), not to the page's shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT';
}

/** Controls that Enter or Space press: a link, a button, a tab, a menu entry, a box to tick. */
const PRESSABLE =
  'a[href], button, summary, select, [role="button"], [role="link"], [role="tab"], [role="menuitem"], ' +
  '[role="option"], [role="checkbox"], [role="radio"], [role="switch"]';

/** Widgets whose arrow keys move within them: the tabs, the menu, a group of radios, a list to pick from. */
const ARROW_WIDGETS =
  'select, [role="tablist"], [role="menu"], [role="menubar"], [role="radiogroup"], [role="listbox"], ' +
  '[role="tree"], [role="grid"], [role="slider"], [role="combobox"], [role="spinbutton"]';

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End']);

/**
 * True when the focused control acts on `key` itself, so a page shortcut must leave it alone: Enter and Space
 * press the link or button that has the focus (not the page's submit), arrows move within the tabs or menu.
 */
export function controlOwns(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (key === 'Enter' || key === ' ') return target.closest(PRESSABLE) !== null;
  if (ARROWS.has(key)) return target.closest(ARROW_WIDGETS) !== null;
  return false;
}

/**
 * Page shortcuts while the component is shown: `handlers` by `KeyboardEvent.key` (lower case for letters).
 * A key typed into a text field is left to it, except the keys in `alsoInFields` (Enter in a number box), and so is
 * a key the focused control acts on itself.
 */
export function useShortcuts(handlers: Record<string, () => void>, alsoInFields: readonly string[] = []): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const inField = typingIn(e.target);
      if (inField && !(alsoInFields.includes(key) && (e.target as HTMLElement).tagName === 'INPUT')) return;
      if (!inField && controlOwns(e.target, key)) return;
      const run = latest.current[key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [alsoInFields]);
}
