/**
 * npm run bench:face-monitor — the server's face-check cost per candidate-hour of exam, with the browser reading
 * every frame and the server checking the frames it flags plus one in FACE_SAMPLE_EVERY of the others
 * (services/faceVerification.ts), against the server checking every frame itself. The CPU time of one check is
 * measured here on the real engine with 1280x720 camera frames (a face, nobody); the checks an hour come from a
 * simulated hour of frames at the capture interval with the given number of problem episodes (the browser raises
 * each once), sampled with the service's own draw.
 */
import { randomInt } from 'node:crypto';
import { FacePool } from '../proctoring/face/pool.js';
import { facePhoto, flatPhoto } from './facePhotos.js';

const INTERVAL_S = Number(process.env.BENCH_CAPTURE_INTERVAL_S ?? 30);
const SAMPLE_EVERY = Number(process.env.FACE_SAMPLE_EVERY ?? 10);
const EPISODES_PER_HOUR = Number(process.env.BENCH_EPISODES_PER_HOUR ?? 4);
const HOURS = Number(process.env.BENCH_HOURS ?? 1000);
const CHECKS = Number(process.env.BENCH_FACE_SINGLE ?? 30);

/** The p-th percentile (0..100) of numbers. */
function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/**
 * One simulated candidate-hour: frames at the interval, `episodes` spells of 1 to 3 frames with a problem at
 * random places (not overlapping). Answers the frames, the browser's flags (one per spell) and the frames sampled.
 */
function simulateHour(): { frames: number; flags: number; sampled: number } {
  const frames = Math.floor(3600 / INTERVAL_S);
  const bad = new Array<boolean>(frames).fill(false);
  let flags = 0;
  for (let e = 0; e < EPISODES_PER_HOUR; e++) {
    const start = randomInt(frames);
    const length = 1 + randomInt(3);
    // a spell touching another one is the same episode for the browser
    if (bad.slice(Math.max(0, start - 1), start + length + 1).some(Boolean)) continue;
    for (let i = start; i < Math.min(frames, start + length); i++) bad[i] = true;
    flags++;
  }
  let sampled = 0;
  // as FaceVerificationService.frameRecorded draws, skipping frames the browser flagged (their flag is checked)
  for (let i = 0; i < frames; i++) {
    const drawn = SAMPLE_EVERY > 0 && randomInt(SAMPLE_EVERY) === 0;
    if (drawn && !bad[i]) sampled++;
  }
  return { frames, flags, sampled };
}

async function main(): Promise<void> {
  const pool = new FacePool({ size: 1, maxQueue: 4 });
  await pool.start();
  const pictures = [facePhoto('a', 1280, 720), flatPhoto(1280, 720)];
  for (const p of pictures) await pool.analyze(p);
  const cpu: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const c0 = process.cpuUsage();
    await pool.analyze(pictures[i % pictures.length]!);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  await pool.close();
  const cpuMs = pct(cpu, 50);

  let frames = 0;
  let flags = 0;
  let sampled = 0;
  for (let h = 0; h < HOURS; h++) {
    const hour = simulateHour();
    frames += hour.frames;
    flags += hour.flags;
    sampled += hour.sampled;
  }
  const perHour = { frames: frames / HOURS, flags: flags / HOURS, sampled: sampled / HOURS };
  const monitored = perHour.flags + perHour.sampled;
  const cpuS = (checks: number) => (checks * cpuMs) / 1000;
  const perCore = (checks: number) => Math.floor(3600 / cpuS(checks));

  console.log(
    `bench:face-monitor  frames every ${INTERVAL_S} s, ${EPISODES_PER_HOUR} problem episodes an hour, FACE_SAMPLE_EVERY=${SAMPLE_EVERY}, ${HOURS} simulated candidate-hours`,
  );
  console.log(
    `one check      CPU p50 ${cpuMs.toFixed(0)} ms  p90 ${pct(cpu, 90).toFixed(0)} ms (1280x720 frames, one worker, ${CHECKS} checks)`,
  );
  console.log(
    `every frame    ${perHour.frames.toFixed(1)} checks per candidate-hour, ${cpuS(perHour.frames).toFixed(1)} CPU s, ${perCore(perHour.frames)} candidates per core`,
  );
  console.log(
    `browser+sample ${monitored.toFixed(1)} checks per candidate-hour (${perHour.flags.toFixed(1)} flags, ${perHour.sampled.toFixed(1)} sampled), ${cpuS(monitored).toFixed(1)} CPU s, ${perCore(monitored)} candidates per core`,
  );
  console.log(`ratio          ${(perHour.frames / monitored).toFixed(1)}x fewer checks on the server`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
