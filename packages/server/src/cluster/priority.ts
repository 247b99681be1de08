/**
 * Staff work yields the processor to candidates' calls: the worker process (jobs, sweeps) and the threads that
 * read staff's files run at a lower scheduling priority than the API processes, so on a machine whose cores are
 * all busy a 20,000-question import takes longer rather than every candidate's save.
 */
import os from 'node:os';

/** The niceness of staff work (0 is the API processes'; 19 the lowest). */
export const STAFF_NICENESS = 10;

/**
 * Lowers the priority of the calling thread, and of the threads it starts afterwards (on Linux priorities are per
 * thread and inherited). Elsewhere the whole process's would change, so an API process's helper thread leaves it
 * (`wholeProcess` false). Answers whether it did.
 */
export function yieldToCandidates(wholeProcess: boolean): boolean {
  if (!wholeProcess && process.platform !== 'linux') return false;
  try {
    os.setPriority(0, Math.max(os.getPriority(0), STAFF_NICENESS));
    return true;
  } catch {
    // Not allowed here (a restricted container): staff work then runs at the same priority, as before.
    return false;
  }
}
