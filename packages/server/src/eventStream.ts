/** What services and live proctoring know of an open event stream to a page, whatever serves it. */

/** A comment line this often keeps proxies from closing an idle stream and tells the client it is alive. */
export const HEARTBEAT_MS = 15_000;

/** An open stream of server-sent events. */
export interface SseStream<T> {
  /** Sends one event as one `data:` line of JSON; nothing once the stream is closed. */
  send(event: T): void;
  /** Runs `fn` at every heartbeat while the stream is open. */
  onBeat(fn: () => void): void;
  /** Ends the stream from the server's side. */
  close(): void;
  /** True once the client went away or the stream was closed. */
  readonly closed: boolean;
}
