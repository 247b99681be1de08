import { useEffect, useState } from 'react';
import { keepSessionHere } from '../../../api/client.js';

/**
 * While the exam page is open, a session that expires or is revoked keeps the candidate where they are: every
 * change waits in this browser (the outbox and the offline pictures keep it), and `expired` turns true until
 * they log in again.
 */
export function useSessionKeeper() {
  const [expired, setExpired] = useState(false);
  useEffect(() => keepSessionHere(() => setExpired(true)), []);
  return { expired, renewed: () => setExpired(false) };
}
