/**
 * What every part of grading reads the same way: an exam's grading settings, the marks an answer needs, and an
 * attempt's final score as the sum of its per-question rows.
 */
import { DEFAULT_GRADING_SETTINGS, type GradingSettings } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { GradingRepository } from '../repositories/grading.js';
import { roundPoints } from './scoring.js';

/** An exam's grading settings (the defaults when it set none). */
export async function gradingSettingsOf(repo: GradingRepository, examId: number): Promise<GradingSettings> {
  const row = await repo.settings(examId);
  if (!row) return DEFAULT_GRADING_SETTINGS;
  return { blind: row.blind === 1, double_marking: row.double_marking === 1, margin: row.margin };
}

/** Marks an answer needs before it is decided. */
export function marksRequired(s: GradingSettings): number {
  return s.double_marking ? 2 : 1;
}

/** Sets an attempt's final score to the sum of its per-question rows (and its kept totals with it). */
export async function sumScore(trx: Db, attemptId: number): Promise<number> {
  const grading = new GradingRepository(trx);
  const rows = await grading.scoresOf(attemptId);
  const score = roundPoints(rows.reduce((n, r) => n + (r.points ?? 0), 0));
  const max = roundPoints(rows.reduce((n, r) => n + r.max, 0));
  await new AttemptRepository(trx).setScore(attemptId, score, max);
  await grading.keepTotals(attemptId);
  return score;
}
