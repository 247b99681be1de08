import { MonitorStepField, type CheckResult, type MonitorStepId } from '@examhall/contract';
import { z } from 'zod';
import type { Db } from '../db/database.js';

/** What a check record's detail holds (more fields, such as the faces of the camera's picture, may follow). */
const CheckDetail = z.object({ step: MonitorStepField, result: z.enum(['passed', 'skipped']) });

/** The JSON of a record's detail, or null when it is none. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The device checks recorded in attempts' chains (records of kind 'check'). */
export class CheckRepository {
  constructor(private readonly db: Db) {}

  /** The latest recorded outcome of each step of an attempt, by step id. */
  async results(attemptId: number): Promise<Map<MonitorStepId, CheckResult>> {
    const rows = await this.db
      .selectFrom('risk_records')
      .select('detail')
      .where('attempt_id', '=', attemptId)
      .where('kind', '=', 'check')
      .orderBy('id')
      .execute();
    const results = new Map<MonitorStepId, CheckResult>();
    for (const r of rows) {
      const d = CheckDetail.safeParse(parseJson(r.detail));
      // A check record edited in the database is the verifier's to report; it counts for nothing here.
      if (d.success) results.set(d.data.step, d.data.result);
    }
    return results;
  }
}
