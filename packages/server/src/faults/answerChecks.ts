/** What fault tests share: their cluster's start and close, and the answer load started and checked. */
import { afterAll, beforeAll, expect } from 'vitest';
import type { BenchDb, ServerProcess } from '../bench/harness.js';
import { requirePart } from '../test/parts.js';
import { startCluster, type Cluster, type ExamCandidate } from './cluster.js';
import { AnswerLoad, answersFound, choiceQuestions } from './load.js';

/**
 * Starts the candidates saving answers to the exam's choice questions (read through the first of `bases`) every
 * `everyMs`, each change given up after `giveUpMs`.
 */
export async function startAnswerLoad(o: {
  bases: () => readonly string[];
  examId: number;
  candidates: readonly ExamCandidate[];
  everyMs: number;
  giveUpMs: number;
}): Promise<AnswerLoad> {
  const choices = await choiceQuestions(o.bases()[0]!, o.examId, o.candidates[0]!.token);
  return new AnswerLoad({ ...o, choices });
}

/**
 * Counts the acknowledged changes the database holds, logs `[fault <label>] answers acknowledged N, found F <tail>`
 * and the failures seen, and expects every change acknowledged and every acknowledged one found.
 */
export async function expectNoAnswerLost(db: BenchDb, load: AnswerLoad, label: string, tail: string): Promise<void> {
  const handle = db.open();
  try {
    const found = await answersFound(handle.db, load.acknowledged);
    console.log(`[fault ${label}] answers acknowledged ${load.acknowledged.size}, found ${found} ${tail}`);
    console.log(`[fault] failures on the way: ${load.failureKinds() || 'none'}`);
    expect(load.unacknowledged).toEqual([]);
    expect(found).toBe(load.acknowledged.size);
  } finally {
    await handle.db.destroy();
  }
}

/** Whether PostgreSQL and Redis, which a cluster runs on, are reachable (`requirePart`: CI fails without them). */
export async function clusterPartsHere(): Promise<boolean> {
  return (await requirePart('postgres')) && (await requirePart('redis'));
}

/** The cluster's first API process and a second one started now. */
export async function twoApis(cluster: Cluster): Promise<[ServerProcess, ServerProcess]> {
  return [cluster.apis[0]!, await cluster.startApi()];
}

/**
 * Starts a cluster with `invited` candidates before the tests of the describe block it is called in, and closes it
 * after them; answers a getter of it.
 */
export function clusterForTests(invited: number): () => Cluster {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster(invited);
  }, 120_000);
  afterAll(async () => cluster?.close(), 60_000);
  return () => cluster!;
}
