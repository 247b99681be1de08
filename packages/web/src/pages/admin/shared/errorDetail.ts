/** A failure's text with the server's specifics kept (which case failed, which section), in either language. */
import { ERRORS, type ErrorCode } from '@examhall/contract';
import { errorText, isApiError } from '../../../api/client.js';

/**
 * The page's text for a failure, and the server's own message when it names specifics the text does not
 * (a question, a case, a field); null when it adds nothing.
 */
export function errorWithDetail(e: unknown): { text: string; detail: string | null } {
  const text = errorText(e);
  if (!isApiError(e)) return { text, detail: null };
  const generic = e.code in ERRORS ? ERRORS[e.code as ErrorCode].msg : '';
  const detail = e.msg && e.msg !== generic && e.msg !== text && !text.includes(e.msg) ? e.msg : null;
  return { text, detail };
}
