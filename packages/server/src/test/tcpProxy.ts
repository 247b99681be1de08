/** A TCP proxy in front of a real part (PostgreSQL, Redis) that a test closes and reopens to take the part away. */
import net from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  /** Its port on 127.0.0.1 (the same across close and open). */
  port: number;
  /** Stops listening and cuts every connection through it, as a part that went down. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
  /**
   * Goes silent, as a part behind a network that drops packets: connections through it are cut, new ones are
   * accepted and never answered. `open()` ends it for new connections.
   */
  silence(): void;
}

/** Starts a proxy on a free port of 127.0.0.1 forwarding to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let silent = false;
  const server = net.createServer((client) => {
    if (silent) {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect({ host, port });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (at: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const own = await listen(0);
  return {
    port: own,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    async open() {
      silent = false;
      if (!server.listening) await listen(own);
    },
    silence() {
      silent = true;
      for (const s of sockets) s.destroy();
    },
  };
}
