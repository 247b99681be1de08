/**
 * s3rver as a process of its own (bench/clusterParts.ts starts it): the store's work is then not on the load
 * generator's event loop, and its CPU is measured apart. Arguments: the folder; prints `ready <port>`.
 */
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: s3rverMain <folder>');
  process.exit(2);
}
const s3 = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: dir,
  configureBuckets: [{ name: 'evidence', configs: [] }],
});
const { port } = (await s3.run()) as AddressInfo;
process.stdout.write(`ready ${port}\n`);
const stop = () => void s3.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
