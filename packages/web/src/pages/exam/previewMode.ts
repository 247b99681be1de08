/**
 * Preview as a candidate: the console starts a preview attempt and opens the real candidate pages on it;
 * this marker (in localStorage, so the new tab sees it) tells the exam page which preview version it runs,
 * so it can offer the answer keys. Framework-free so it is tested on its own.
 */

/** Where the marker is kept. */
export const PREVIEW_STORAGE_KEY = 'examhall.preview';

/** A preview attempt the console opened. */
export interface PreviewMarker {
  /** The exam. */
  exam_id: number;
  /** The preview invitation. */
  anid: number;
  /** The preview version frozen from the draft. */
  version_id: number;
  /** When the preview token expires (epoch ms). */
  expires_at: number;
  /** Whether the keys are shown under each question. */
  show_keys: boolean;
}

/** The minimal storage the marker needs (localStorage in the browser). */
export interface MarkerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Remembers a preview the console just opened. */
export function savePreview(storage: MarkerStorage, marker: PreviewMarker): void {
  storage.setItem(PREVIEW_STORAGE_KEY, JSON.stringify(marker));
}

/** The preview running at this exam and invitation, or null (none, another exam, expired or unreadable). */
export function readPreview(storage: MarkerStorage, examId: number, anid: number, now: number): PreviewMarker | null {
  let marker: Partial<PreviewMarker>;
  try {
    marker = JSON.parse(storage.getItem(PREVIEW_STORAGE_KEY) ?? 'null') as Partial<PreviewMarker>;
  } catch {
    return null;
  }
  if (!marker || typeof marker !== 'object') return null;
  if (marker.exam_id !== examId || marker.anid !== anid) return null;
  if (typeof marker.version_id !== 'number' || typeof marker.expires_at !== 'number' || marker.expires_at <= now)
    return null;
  return { ...(marker as PreviewMarker), show_keys: marker.show_keys === true };
}

/** One line of a key as shown under a question. */
export interface KeyLine {
  /** What it is: 'option', 'options', 'blank 1', 'sub 3 option', ... */
  label: string;
  /** Its value as text. */
  value: string;
}

/** Longest value shown for one line (rubrics, code). */
const LINE_MAX = 300;

function text(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > LINE_MAX ? `${s.slice(0, LINE_MAX)}…` : s;
}

/**
 * A stored answer key as readable lines: right option(s), accepted blanks, option points, sub-question keys,
 * the rubric, and for programming the reference language, checker and number of hidden cases (never their data).
 */
export function describeKey(key: unknown, prefix = ''): KeyLine[] {
  if (key === null || typeof key !== 'object' || Array.isArray(key))
    return [{ label: prefix || 'key', value: text(key) }];
  const k = key as Record<string, unknown>;
  const lines: KeyLine[] = [];
  const at = (label: string) => (prefix ? `${prefix} ${label}` : label);
  for (const [name, v] of Object.entries(k)) {
    if (name === 'option' && typeof v === 'string') lines.push({ label: at('option'), value: v });
    else if (name === 'options' && Array.isArray(v)) lines.push({ label: at('options'), value: v.join(', ') });
    else if (name === 'blanks' && Array.isArray(v))
      v.forEach((accepted, i) =>
        lines.push({
          label: at(`blank ${i + 1}`),
          value: Array.isArray(accepted) ? accepted.join(' | ') : text(accepted),
        }),
      );
    else if (name === 'scores' && v && typeof v === 'object')
      lines.push({
        label: at('scores'),
        value: Object.entries(v as Record<string, unknown>)
          .map(([id, points]) => `${id}=${String(points)}`)
          .join(', '),
      });
    else if (name === 'subs' && v && typeof v === 'object')
      for (const [id, sub] of Object.entries(v as Record<string, unknown>))
        lines.push(...describeKey(sub, at(`sub ${id}`)));
    else if (name === 'cases' && Array.isArray(v)) lines.push({ label: at('hidden cases'), value: String(v.length) });
    else if (name === 'reference' && v && typeof v === 'object')
      lines.push({ label: at('reference'), value: String((v as { language?: unknown }).language ?? '') });
    else if (name === 'checker')
      lines.push({
        label: at('checker'),
        value: typeof v === 'string' ? v : text((v as { kind?: unknown })?.kind ?? v),
      });
    else if (name === 'audio') continue;
    else lines.push({ label: at(name), value: text(v) });
  }
  return lines;
}
