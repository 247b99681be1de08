/** The exam page's outbox, opened once per exam, and what it says about saving. */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { errorText } from '../api/client.js';
import type { Outbox, OutboxSnapshot } from './outbox.js';
import { openExamOutbox } from './session.js';

const EMPTY_SNAPSHOT: OutboxSnapshot = {
  online: true,
  failures: 0,
  signedOut: false,
  finished: false,
  pending: new Map(),
  rejected: new Map(),
  total: 0,
};
const noSubscribe = () => () => undefined;

/**
 * Opens the exam's outbox. Until it has loaded what an earlier visit left, `box` is null and nothing is shown
 * as answered; a failure to open or to store a change is kept in `error` for the page to show.
 */
export function useExamOutbox(examId: number) {
  const [box, setBox] = useState<Outbox | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let opened: Outbox | null = null;
    openExamOutbox(examId).then(
      (b) => {
        if (cancelled) return b.close();
        opened = b;
        setBox(b);
      },
      (e: unknown) => setError(errorText(e)),
    );
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [examId]);
  const snapshot = useSyncExternalStore(box?.subscribe ?? noSubscribe, box?.getSnapshot ?? (() => EMPTY_SNAPSHOT));
  return { box, snapshot, error, setError };
}
