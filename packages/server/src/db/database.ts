import path from 'node:path';
import { Kysely, Migrator, type KyselyConfig, type Migration, type MigrationProvider } from 'kysely';
import { isPostgresUnavailable, postgresKit } from './dialects/postgres.js';
import { isSqliteBusy, sqliteKit, type WalCheckpoints } from './dialects/sqlite.js';
import type { DialectKit } from './dialects/types.js';
import { foundation } from './migrations/001_foundation.js';
import { attempts } from './migrations/002_attempts.js';
import { judgeRuns } from './migrations/003_judge.js';
import { evidence } from './migrations/004_evidence.js';
import { proctorConsole } from './migrations/005_proctor_console.js';
import { idPhoto } from './migrations/006_id_photo.js';
import { judgeRunInput } from './migrations/007_judge_run_input.js';
import { questionKind } from './migrations/008_question_kind.js';
import { teamsAudit } from './migrations/009_teams_audit.js';
import { bank } from './migrations/010_bank.js';
import { examVersions } from './migrations/011_exam_versions.js';
import { staffSecurity } from './migrations/012_staff_security.js';
import { storageQuota } from './migrations/013_storage_quota.js';
import { candidateNote } from './migrations/014_candidate_note.js';
import { jobs } from './migrations/015_jobs.js';
import { schedules } from './migrations/016_schedules.js';
import { invitationSms } from './migrations/018_invitation_sms.js';
import { codeSimilarity } from './migrations/019_code_similarity.js';
import { grading } from './migrations/021_grading.js';
import { versionKeyRevision } from './migrations/025_version_key_revision.js';
import { judgeRunsUnfinished } from './migrations/026_judge_runs_unfinished.js';
import { faceChecks } from './migrations/027_face_checks.js';
import { smsCodeSend } from './migrations/028_sms_code_send.js';
import { attemptsInvitation } from './migrations/029_attempts_invitation.js';
import { jobExam } from './migrations/031_job_exam.js';
import { sweepIndexes } from './migrations/032_sweep_indexes.js';
import { attemptTotals } from './migrations/033_attempt_totals.js';
import { itemAnalyses } from './migrations/034_item_analyses.js';
import { bankImportRows } from './migrations/035_bank_import_rows.js';
import { faceCheckOrder } from './migrations/037_face_check_order.js';
import { similarityRarity } from './migrations/038_similarity_rarity.js';
import { explanations } from './migrations/039_explanations.js';
import { staffSessions } from './migrations/040_staff_sessions.js';
import { sso } from './migrations/041_sso.js';
import { examSeb } from './migrations/042_exam_seb.js';
import { smsBudget } from './migrations/030_sms_budget.js';
import { candidates } from './migrations/017_candidates.js';
import { jobRequestId } from './migrations/020_job_request_id.js';
import { integrations } from './migrations/023_integrations.js';
import { itemFlags } from './migrations/024_item_flags.js';
import type { Database } from './schema.js';

/** The database handle services and repositories share. */
export type Db = Kysely<Database>;

/** An open database and what kind it is. */
export interface DbHandle {
  db: Db;
  dialect: DialectKit['name'];
  kit: DialectKit;
  /** The PostgreSQL schema this handle works in, when it is not the default one (tests). */
  schema?: string;
}

/** Where the database lives: PostgreSQL when a URL is given, else SQLite in the data directory. */
export interface DbTarget {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** SQLite file; ':memory:' for a throwaway database. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  searchPath?: string;
  /** Hears every statement Kysely runs (tests that ask the planner about them). */
  log?: KyselyConfig['log'];
  /** Who checkpoints SQLite's WAL (dialects/sqlite.ts); SQLite's own default when absent. */
  walCheckpoints?: WalCheckpoints;
}

/**
 * True when `err` says the database is not answering (PostgreSQL down, restarting or cut off), or SQLite's writer
 * stayed another process's for longer than a statement waits (BUSY_WAIT_MS), so the request may be made again
 * later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return isPostgresUnavailable(err) || isSqliteBusy(err);
}

/** The embedded store's database file in a data directory. */
export const sqliteFileIn = (dataDir: string) => path.join(dataDir, 'examhall.sqlite');

/** Opens the database described by `target`. */
export function openDb(target: DbTarget): DbHandle {
  const kit = target.databaseUrl
    ? postgresKit(target.databaseUrl, target.searchPath)
    : sqliteKit(target.sqliteFile ?? sqliteFileIn(target.dataDir ?? './data'), target.walCheckpoints);
  const db = new Kysely<Database>({ dialect: kit.dialect, ...(target.log ? { log: target.log } : {}) });
  return {
    db,
    dialect: kit.name,
    kit,
    ...(target.databaseUrl && target.searchPath ? { schema: target.searchPath } : {}),
  };
}

/** Every migration in order; names sort in the order they run. */
function migrations(kit: DialectKit): Record<string, Migration> {
  return {
    '001_foundation': foundation(kit),
    '002_attempts': attempts(kit),
    '003_judge': judgeRuns(kit),
    '004_evidence': evidence(kit),
    '005_proctor_console': proctorConsole(kit),
    '006_id_photo': idPhoto(),
    '007_judge_run_input': judgeRunInput(),
    '008_question_kind': questionKind(),
    '009_teams_audit': teamsAudit(kit),
    '010_bank': bank(kit),
    '011_exam_versions': examVersions(kit),
    '012_staff_security': staffSecurity(kit),
    '013_storage_quota': storageQuota(),
    '014_candidate_note': candidateNote(),
    '015_jobs': jobs(kit),
    '016_schedules': schedules(kit),
    '018_invitation_sms': invitationSms(kit),
    '017_candidates': candidates(),
    '019_code_similarity': codeSimilarity(kit),
    '020_job_request_id': jobRequestId(),
    '021_grading': grading(kit),
    '023_integrations': integrations(kit),
    '024_item_flags': itemFlags(),
    '025_version_key_revision': versionKeyRevision(),
    '026_judge_runs_unfinished': judgeRunsUnfinished(),
    '027_face_checks': faceChecks(kit),
    '028_sms_code_send': smsCodeSend(),
    '029_attempts_invitation': attemptsInvitation(),
    '030_sms_budget': smsBudget(),
    '031_job_exam': jobExam(),
    '032_sweep_indexes': sweepIndexes(),
    '033_attempt_totals': attemptTotals(),
    '034_item_analyses': itemAnalyses(),
    '035_bank_import_rows': bankImportRows(),
    '037_face_check_order': faceCheckOrder(),
    '038_similarity_rarity': similarityRarity(),
    '039_explanations': explanations(),
    '040_staff_sessions': staffSessions(),
    '041_sso': sso(kit),
    '042_exam_seb': examSeb(),
  };
}

/**
 * Brings the schema up to date (or up to the migration named `upTo`, for tests of a migration's treatment of
 * earlier data); throws with the failing migration's name.
 */
export async function migrate(handle: DbHandle, upTo?: string): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.kit) };
  // Kysely looks for its migration tables in every schema unless told which: with another test's schema
  // migrating at the same time it would find that one's tables, skip creating its own and fail.
  const migrator = new Migrator({
    db: handle.db,
    provider,
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
