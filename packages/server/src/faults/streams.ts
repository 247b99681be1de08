/**
 * A candidate's event stream as the page keeps it: opened again (on the next API process) whenever it ends or
 * breaks, as EventSource does. What counts is what arrives, over every connection.
 */
import { openSse, type SseClient } from '../test/sse.js';
import type { ExamCandidate } from './cluster.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An event as the candidate's stream sends it. */
export interface StreamEvent {
  type: string;
  warning?: { text: string };
}

/** A stream that reconnects by itself. */
export class CandidateStream {
  /** Connections opened (1 means it never had to reconnect). */
  connections = 0;
  private readonly clients: SseClient<StreamEvent>[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly bases: () => readonly string[],
    private readonly examId: number,
    private readonly c: ExamCandidate,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    for (let turn = 0; !this.stopped; turn++) {
      const all = this.bases();
      const url = `${all[turn % all.length]!}/api/monitor/events?exam_id=${this.examId}&auth=${this.c.token}`;
      try {
        const client = await openSse<StreamEvent>(url, { 'x-forwarded-for': this.c.ip });
        if (client.status !== 200) {
          client.close();
        } else {
          this.connections += 1;
          this.clients.push(client);
          if (this.stopped) client.close();
          await client.ended;
        }
      } catch {
        // Refused or cut: the browser tries again.
      }
      if (!this.stopped) await sleep(500);
    }
  }

  /** Every event received so far, over every connection. */
  get events(): StreamEvent[] {
    return this.clients.flatMap((c) => c.events);
  }

  /** Waits until the stream is open (its first event has arrived); throws after `timeoutMs`. */
  async opened(timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.events.some((e) => e.type === 'hello')) {
      if (Date.now() > end) throw new Error("the candidate's stream did not open");
      await sleep(100);
    }
  }

  /** Waits until a warning with `text` has arrived; throws after `timeoutMs`. */
  async warned(text: string, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.events.some((e) => e.type === 'warning' && e.warning?.text === text)) {
      if (Date.now() > end) throw new Error(`the warning "${text}" did not reach the candidate's stream`);
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.clients) c.close();
    await this.loop;
  }
}
