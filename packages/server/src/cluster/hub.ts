/**
 * The supervisor's side of cluster/ipc.ts: one rate limiter for every process of the embedded default, and the
 * relay that passes a proctoring change announced in one process to all the others.
 */
import { MemoryRateLimiter, type Lease } from '../ratelimit/limiter.js';
import type { IpcChannel, IpcMessage, LimiterCall } from './ipc.js';

/** The counters and the relay, shared by the processes that join. */
export class Hub {
  private readonly limiter = new MemoryRateLimiter();
  private readonly members = new Map<number, IpcChannel>();
  /** Leases by id, with the process that holds each: a process that dies gives its places back at once. */
  private readonly leases = new Map<string, { lease: Lease; member: number }>();
  private next = 0;

  /** Serves a process's channel until `leave` is called (its process ended); answers `leave`. */
  join(channel: IpcChannel, onState?: (m: Extract<IpcMessage, { t: 'state' }>) => void): () => void {
    const member = ++this.next;
    this.members.set(member, channel);
    const stop = channel.onMessage((m) => {
      if (m.t === 'limiter') {
        this.answer(member, channel, m.id, m.call);
      } else if (m.t === 'notify') {
        for (const [other, to] of this.members) if (other !== member) to.send(m);
      } else if (m.t === 'state') {
        onState?.(m);
      }
    });
    return () => {
      stop();
      this.members.delete(member);
      for (const [id, held] of this.leases) {
        if (held.member !== member) continue;
        this.leases.delete(id);
        void held.lease.release();
      }
    };
  }

  private answer(member: number, channel: IpcChannel, id: string, call: LimiterCall): void {
    this.run(member, call).then(
      (value) => channel.send({ t: 'limiter:done', id, ok: true, value: value ?? null }),
      (err: unknown) =>
        channel.send({ t: 'limiter:done', id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  }

  private async run(member: number, call: LimiterCall): Promise<unknown> {
    switch (call.op) {
      case 'hit':
        return this.limiter.hit(call.key, call.limit, call.windowMs);
      case 'count':
        return this.limiter.count(call.key);
      case 'reset':
        return this.limiter.reset(call.key);
      case 'lease': {
        const lease = await this.limiter.lease(call.keys, call.ttlMs);
        if (!lease) return false;
        this.leases.set(call.lease, { lease, member });
        return true;
      }
      case 'renew':
        return this.leases.get(call.lease)?.lease.renew();
      case 'release': {
        const held = this.leases.get(call.lease);
        this.leases.delete(call.lease);
        return held?.lease.release();
      }
      case 'turn':
        return this.limiter.turn(call.queue, call.member, call.intervalMs, call.ttlMs, call.now, call.latest);
    }
  }
}
