/** Keeping the keyboard inside a dialog: what can take focus, and where Tab goes from the edges. */

/** Elements that can take focus with Tab. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** The elements inside `root` that Tab stops at, in document order. */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/**
 * Where Tab (or Shift+Tab) must go instead of the browser's choice to stay inside a dialog with `count` stops:
 * from the last stop forward to the first, from the first (or from the dialog itself, `current` -1) backward to
 * the last. Null when the browser's own move stays inside.
 */
export function wrapTab(count: number, current: number, backward: boolean): number | null {
  if (count === 0) return null;
  if (backward) return current <= 0 ? count - 1 : null;
  return current === -1 || current >= count - 1 ? 0 : null;
}
