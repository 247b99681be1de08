/**
 * What a logout must forget, told by the modules that hold it. They register themselves when they load, so the
 * session module needs none of them: a page that never loaded the judge does not load it to log out.
 */

const forgetters = new Set<() => void>();

/** Registers `forget` to run when the candidate logs out. Answers the unregister. */
export function onSessionEnd(forget: () => void): () => void {
  forgetters.add(forget);
  return () => forgetters.delete(forget);
}

/** Runs every registered forget; one that throws does not keep the others from running. */
export function endSession(): void {
  for (const forget of forgetters) {
    try {
      forget();
    } catch (e) {
      console.warn('a module failed to forget the session', e);
    }
  }
}
