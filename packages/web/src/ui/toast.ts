/**
 * Short messages at the top of the page that go away by themselves (a paste that was stopped): a small store any
 * code may post to, drawn by <Toaster />. A message with a key replaces the one showing under that key, so a
 * repeated action does not stack copies.
 */
import type { NoticeType } from './icons.js';

/** One message on screen. */
export interface Toast {
  id: number;
  type: NoticeType;
  content: string;
  key: string;
}

/** How long a message stays. */
export const TOAST_MS = 3_000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function set(next: readonly Toast[]) {
  toasts = next;
  for (const l of listeners) l();
}

/** Takes a message off the screen. */
export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  set(toasts.filter((t) => t.id !== id));
}

/** Shows a message for TOAST_MS; answers its id. */
export function showToast(type: NoticeType, content: string, key?: string): number {
  const id = nextId++;
  const k = key ?? `toast-${id}`;
  for (const old of toasts.filter((t) => t.key === k)) {
    clearTimeout(timers.get(old.id));
    timers.delete(old.id);
  }
  set([...toasts.filter((t) => t.key !== k), { id, type, content, key: k }]);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_MS),
  );
  return id;
}

/** The messages on screen, oldest first. */
export function currentToasts(): readonly Toast[] {
  return toasts;
}

/** Calls `listener` whenever the messages change; answers the unsubscribe. */
export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
