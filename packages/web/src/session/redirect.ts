/** A `redirect` parameter that stays inside the app (no other origin, no protocol-relative path), or the fallback. */
export function safeRedirect(value: string | null, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}

/** True when `path` is one of an exam's pages (entry, checks, the exam itself, its result): a login on the way back to it. */
export function isExamPath(path: string): boolean {
  return /^\/exam\/\d+\/\d+(\/|$|\?)/.test(path);
}
