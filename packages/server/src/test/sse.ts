/** A real server-sent-events client for tests: fetch, read the body as it arrives, parse `data:` lines. */

/** An open event stream. */
export interface SseClient<T> {
  /** The HTTP status of the answer. */
  status: number;
  /** Content type of the answer. */
  contentType: string;
  /** Every event received so far. */
  events: T[];
  /** The first event (already received or still to come) that matches, or a rejection after `timeoutMs`. */
  next(match: (e: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Closes the connection from the client's side. */
  close(): void;
  /** Settles when the stream ends: 'end' when the server ended it cleanly, 'error' when it broke. */
  ended: Promise<'end' | 'error'>;
}

/** Opens `url` as an event stream with `headers`; resolves once the answer's headers are in. */
export async function openSse<T = Record<string, unknown>>(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseClient<T>> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: T[] = [];
  const waiters: { match: (e: T) => boolean; resolve: (e: T) => void }[] = [];
  const deliver = (e: T) => {
    events.push(e);
    for (const w of [...waiters]) {
      if (w.match(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  };
  let ended: Promise<'end' | 'error'> = Promise.resolve('end');
  if (res.body && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    ended = (async (): Promise<'end' | 'error'> => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return 'end';
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) deliver(JSON.parse(data) as T);
          }
        }
      } catch {
        // Closed by the test, or broken.
        return 'error';
      }
    })();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    events,
    next(match, timeoutMs = 5_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close() {
      abort.abort();
    },
    ended,
  };
}
