/**
 * Whose exam data this browser holds: the candidate who logged in last. A browser may be shared (a campus computer
 * lab), so what the exam page keeps for later (unsent answers, the offline copy of the exam) is kept per
 * candidate, and one candidate's unsent answers are never sent with another's login; they wait for their own.
 */

const OWNER_KEY = 'examhall-candidate';

/** Notes the candidate who just logged in. */
export function rememberCandidate(candidateId: number): void {
  try {
    localStorage.setItem(OWNER_KEY, String(candidateId));
  } catch {
    // Without storage the browser keeps nothing for later either.
  }
}

/** The candidate who logged in last on this browser, or null when none is known. */
export function currentCandidate(): number | null {
  try {
    const n = Number(localStorage.getItem(OWNER_KEY) ?? '');
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** True when something kept for later may be shown and sent for `owner`: theirs, or nobody's known. */
export function ownedBy(kept: { candidate_id?: number }, owner: number | null): boolean {
  return kept.candidate_id === undefined || owner === null || kept.candidate_id === owner;
}
