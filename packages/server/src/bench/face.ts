/**
 * npm run bench:face — latency and CPU time of one face check (decode + detect + embed + phone detection) per
 * picture and checks per second with the worker pool on this machine's cores, next to decoding alone measured
 * in the same run (the ratio says how much of a check is the models).
 */
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { decodeImage } from '../proctoring/face/image.js';
import { FacePool } from '../proctoring/face/pool.js';
import { facePhoto, twoFacesPhoto } from './facePhotos.js';

const WORKERS = Number(process.env.BENCH_FACE_WORKERS ?? availableParallelism());
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SINGLE = Number(process.env.BENCH_FACE_SINGLE ?? 20);

/** The p-th percentile (0..100) of sorted numbers. */
function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

function summary(latencies: number[]): { p50: number; p99: number } {
  const s = [...latencies].sort((a, b) => a - b);
  return { p50: pct(s, 50), p99: pct(s, 99) };
}

async function main(): Promise<void> {
  // camera-like pictures: three people at 640x480, one at 1280x720, and two people in one picture
  const pictures = [facePhoto('a'), facePhoto('b'), facePhoto('d'), facePhoto('a', 1280, 720), twoFacesPhoto('a', 'd')];
  const avgKb = pictures.reduce((n, p) => n + p.length, 0) / pictures.length / 1024;
  console.log(
    `bench:face  ${availableParallelism()} cores, ${WORKERS} workers, ${pictures.length} pictures (640x480 to 1280x960 JPEG, ${avgKb.toFixed(0)} KB avg)`,
  );

  // baseline: decoding alone (at the size the models get), one thread
  const decodeTimes: number[] = [];
  for (let i = 0; i < 3; i++) await decodeImage(pictures[i % pictures.length]!);
  const decodeStart = performance.now();
  for (let i = 0; performance.now() - decodeStart < 3000 || i < 20; i++) {
    const t0 = performance.now();
    await decodeImage(pictures[i % pictures.length]!);
    decodeTimes.push(performance.now() - t0);
  }
  const decode = summary(decodeTimes);

  const pool = new FacePool({ size: WORKERS, maxQueue: WORKERS * 4 });
  const loadStart = performance.now();
  await pool.start();
  const loadMs = performance.now() - loadStart;
  // warm-up: the first inferences compile the WASM kernels of every model
  await Promise.all(Array.from({ length: WORKERS * 2 }, (_, i) => pool.analyze(pictures[i % pictures.length]!)));

  // one picture at a time: latency without queueing
  // (with the process's CPU time per check: the main thread only waits, so it is the worker's and the
  // decoder's; on a shared machine it swings much less than the elapsed time)
  const single: number[] = [];
  const inferOnly: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < SINGLE; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await pool.analyze(pictures[i % pictures.length]!);
    single.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    inferOnly.push(r.inferMs);
  }
  const one = summary(single);

  // closed loop, two pictures per worker in flight: throughput and latency under load
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const loaded: number[] = [];
  let faces = 0;
  const end = performance.now() + SECONDS * 1000;
  let next = 0;
  const loadStart2 = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS * 2 }, async () => {
      while (performance.now() < end) {
        const picture = pictures[next++ % pictures.length]!;
        const t0 = performance.now();
        const r = await pool.analyze(picture);
        loaded.push(performance.now() - t0);
        faces += r.faces.length;
      }
    }),
  );
  const elapsed = (performance.now() - loadStart2) / 1000;
  loop.disable();
  await pool.close();
  const under = summary(loaded);
  const perSecond = loaded.length / elapsed;

  console.log(`model load     ${ms(loadMs)} (all workers, in parallel)`);
  console.log(
    `decode         p50 ${ms(decode.p50)}  p99 ${ms(decode.p99)}  (baseline, one thread, ${decodeTimes.length} decodes at the models' size)`,
  );
  console.log(
    `face check     p50 ${ms(one.p50)}  p99 ${ms(one.p99)}  one at a time (${SINGLE} checks; models alone p50 ${ms(summary(inferOnly).p50)})`,
  );
  console.log(
    `face check cpu p50 ${ms(summary(cpu).p50)}  p99 ${ms(summary(cpu).p99)}  CPU time per check, one at a time`,
  );
  console.log(
    `face check     p50 ${ms(under.p50)}  p99 ${ms(under.p99)}  under load (${WORKERS * 2} in flight, ${loaded.length} checks in ${elapsed.toFixed(1)} s, ${faces} faces)`,
  );
  console.log(`throughput     ${perSecond.toFixed(2)} checks/s on ${WORKERS} workers`);
  console.log(`ratio          one check = ${(one.p50 / decode.p50).toFixed(1)}x a decode (p50)`);
  console.log(
    `event loop     max delay ${(loop.max / 1e6).toFixed(1)} ms during the load (inference runs off the loop)`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
