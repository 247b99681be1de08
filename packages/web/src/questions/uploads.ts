/** The bank's uploads the editors make: pictures, listening audio, and zips of hidden cases. */
import { BANK_LIMITS, bankCalls } from '@examhall/contract';
import { errorText, upload, type UploadProgress } from '../api/client.js';

/** Stores a picture for a stem, an option or a passage; answers where it is served. */
export function uploadImage(file: File, onProgress?: UploadProgress) {
  return upload(bankCalls.bankUploadImage, { file }, onProgress);
}

/** Stores listening audio; the server answers its length. */
export function uploadAudio(file: File, onProgress?: UploadProgress) {
  return upload(bankCalls.bankUploadAudio, { file }, onProgress);
}

/** Reads the hidden cases of a zip of `.in`/`.out` pairs; nothing is stored until the question is saved. */
export function uploadCases(file: File, onProgress?: UploadProgress) {
  return upload(bankCalls.bankUploadCases, { file }, onProgress);
}

/** Largest file of each upload, bytes (the server refuses larger ones). */
export const UPLOAD_LIMITS = {
  image: BANK_LIMITS.imageBytes,
  audio: BANK_LIMITS.audioBytes,
  cases: BANK_LIMITS.casesZipBytes,
} as const;

/** Bytes as the editors show them: B, KB or MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes of a text once encoded as UTF-8 (what a case file held). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** How sending a picked file ended: the server's answer, or why not (too large, so not sent; or the failure). */
export type Sent<T> =
  { ok: true; data: T } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false; reason: string };

/**
 * Sends a picked `file` with `send` when it is at most `maxBytes` (a larger one is never sent: the server would
 * refuse it after the whole upload), telling `onPercent` the whole percent sent: 0 as it starts, then as it goes.
 */
export async function sendPicked<T>(
  file: File,
  maxBytes: number,
  send: (file: File, onProgress: UploadProgress) => Promise<T>,
  onPercent: (percent: number) => void,
): Promise<Sent<T>> {
  if (file.size > maxBytes) return { ok: false, tooLarge: true };
  onPercent(0);
  try {
    return { ok: true, data: await send(file, (f) => onPercent(Math.round(f * 100))) };
  } catch (e) {
    return { ok: false, tooLarge: false, reason: errorText(e) };
  }
}
