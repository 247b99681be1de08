/** How the item analysis page writes its figures. Framework-free so it is tested on its own. */

/** A figure to two decimals, or a dash when the data leaves it undefined. */
export function figure(x: number | null, dash = '—'): string {
  return x === null ? dash : x.toFixed(2);
}

/** A share as a whole percentage. */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Where an alpha stands by the usual rule of thumb: 0.8 or more good, 0.7 or more acceptable, else low. */
export function alphaBand(alpha: number): 'good' | 'fair' | 'low' {
  if (alpha >= 0.8) return 'good';
  return alpha >= 0.7 ? 'fair' : 'low';
}
