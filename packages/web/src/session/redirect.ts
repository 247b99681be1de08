/** A `redirect` parameter that stays inside the app (no other origin, no protocol-relative path), or the fallback. */
export function safeRedirect(value: string | null, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
