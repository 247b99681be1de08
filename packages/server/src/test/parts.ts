/** Finding the real parts tests run against: PostgreSQL and Redis on this machine. */
import net from 'node:net';

/** PostgreSQL used by tests. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Redis used by tests. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const isCi = process.env.CI === 'true';

/**
 * True when the part answers. When it does not: under CI=true this throws, so the suite fails loudly;
 * elsewhere it warns and the caller skips.
 */
export async function requirePart(name: 'postgres' | 'redis'): Promise<boolean> {
  const ok = name === 'postgres' ? await reachable(TEST_DATABASE_URL, 5432) : await reachable(TEST_REDIS_URL, 6379);
  if (ok) return true;
  const message = `${name} is not reachable (${name === 'postgres' ? TEST_DATABASE_URL : TEST_REDIS_URL})`;
  if (isCi) throw new Error(`${message}: CI needs it; .ci/run starts it`);
  console.warn(`\n*** SKIPPING ${name} tests: ${message} ***\n`);
  return false;
}
