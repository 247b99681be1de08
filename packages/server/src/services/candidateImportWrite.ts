/** Writing an import's candidates: in batches, each with the job's checkpoint. */
import { CANDIDATE_LIMITS, type CandidateImportRow } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { CandidateDirectoryRepository, phoneKey, type CandidateFieldsRow } from '../repositories/candidateDirectory.js';
import type { JobContext, Json } from '../jobs/types.js';
import type { StaffActor } from './access.js';
import { fieldsOf, importedOver, othersOnly } from './candidates.js';

/** How far an import job got: batches committed and what they did (the checkpoint's cursor). */
interface ImportCursor {
  [key: string]: Json;
  batches: number;
  created: number;
  updated: number;
  /** Rows left out because another team linked their person after the file was read. */
  skipped: number;
}

/** What `importCandidates` writes and for whom. */
export interface CandidateImportPlan {
  rows: readonly CandidateImportRow[];
  teamId: number | null;
  actor: StaffActor;
  /** True when the importer sees every candidate (an admin): existing ones take the file's values. */
  overwriteAll: boolean;
  now: () => number;
  /** Hears the candidates a batch wrote, once it is committed. */
  written?: (candidateIds: readonly number[]) => void;
}

/**
 * Writes candidates in order, `CANDIDATE_LIMITS.batchRows` at a time, each batch in one transaction together
 * with the job's checkpoint (batches done, created and updated so far), reporting progress by rows. Upserts by
 * phone, so a batch that runs twice (a runner died between its effect and the next) writes the same rows.
 */
export async function importCandidates(
  db: Db,
  ctx: Pick<JobContext, 'cursor' | 'checkpoint' | 'progress' | 'signal'>,
  plan: CandidateImportPlan,
): Promise<{ created: number; updated: number; skipped: number }> {
  const size = CANDIDATE_LIMITS.batchRows;
  const total = plan.rows.length;
  const c = ctx.cursor as Partial<ImportCursor> | null;
  let at: ImportCursor = {
    batches: Number(c?.batches ?? 0),
    created: Number(c?.created ?? 0),
    updated: Number(c?.updated ?? 0),
    skipped: Number(c?.skipped ?? 0),
  };
  await ctx.progress(Math.min(at.batches * size, total), total, 'candidates');
  for (let b = at.batches; b * size < total; b++) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancelled');
    const batch = plan.rows.slice(b * size, (b + 1) * size);
    const done = Math.min((b + 1) * size, total);
    let written: readonly number[] = [];
    at = await ctx.checkpoint(
      (out: ImportCursor): Json => out,
      async (trx) => {
        const repo = new CandidateDirectoryRepository(trx);
        const now = plan.now();
        const existing = await repo.byPhones(batch, plan.teamId);
        const fresh: CandidateFieldsRow[] = [];
        const ids: number[] = [];
        // Counted as the preview shows them: a candidate the team did not have yet is one it gains.
        let updated = 0;
        let skipped = 0;
        for (const r of batch) {
          const hit = existing.get(phoneKey(r.area_code, r.phone));
          if (hit) {
            const known = hit.linked || plan.overwriteAll;
            // Another team added the person after the file was read: the plan's refusal applies all the same.
            if (!known && othersOnly(hit)) {
              skipped++;
              continue;
            }
            await repo.update(hit.row.id, importedOver(hit.row, r, known));
            ids.push(hit.row.id);
            if (known) updated++;
          } else fresh.push(fieldsOf(r));
        }
        ids.push(...(await repo.create(fresh, now)));
        if (plan.teamId !== null) await repo.link(ids, plan.teamId, plan.actor.id, now);
        written = ids;
        return {
          batches: b + 1,
          created: at.created + batch.length - updated - skipped,
          updated: at.updated + updated,
          skipped: at.skipped + skipped,
        };
      },
      { done, total },
    );
    plan.written?.(written);
  }
  return { created: at.created, updated: at.updated, skipped: at.skipped };
}
