import { api, type VerifyEvidenceData } from '@examhall/contract';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import { RiskRepository } from '../../repositories/risk.js';
import { streamDigest, type StoredDigest } from '../../storage/digest.js';
import type { ObjectStore } from '../../storage/objectStore.js';
import type { AccessService, StaffActor } from '../access.js';
import type { AttemptService } from '../attempts.js';
import { walkChain, type ChainFault } from '../chain.js';

/** How each chain fault reads in a report. */
const FAULT_TEXT: Record<ChainFault, string> = {
  link: 'does not link to the record before it',
  hash: 'its fields do not match its hash (changed after it was written)',
};

/** Checks that an attempt's evidence is what was recorded: every link of its chain and every stored file. */
export class EvidenceVerificationService {
  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly store: ObjectStore,
    private readonly access: AccessService,
  ) {}

  /** GET /admin/evidence/verify: `verify` for a staff member who may see the attempt. */
  async verifyAs(staff: StaffActor, attemptId: number): Promise<VerifyEvidenceData> {
    await this.access.requireFor(staff, api.verifyEvidence, attemptId);
    return this.verify(attemptId);
  }

  /** Checks an attempt's chain (every hash and link) and re-reads every evidence file against its SHA-256. */
  async verify(attemptId: number): Promise<VerifyEvidenceData> {
    const attempt = await this.attempts.byId(attemptId);
    if (!attempt) throw fail('not_found', `no attempt ${attemptId}`);
    const links = walkChain(await new RiskRepository(this.db).chain(attemptId));
    const problems: VerifyEvidenceData['problems'] = [];
    let files = 0;
    for (const { record: r, fault } of links) {
      if (fault) problems.push({ record_id: r.id, kind: 'chain', detail: FAULT_TEXT[fault] });
      if (!r.sha256 || !r.image_key) continue;
      files++;
      let found: StoredDigest | null;
      try {
        // The bytes themselves, never a digest kept from their upload: this is the check that they are unchanged.
        found = await streamDigest(this.store, r.image_key);
      } catch (err) {
        problems.push({ record_id: r.id, kind: 'missing', detail: `${r.image_key}: ${(err as Error).message}` });
        continue;
      }
      if (!found) problems.push({ record_id: r.id, kind: 'missing', detail: `${r.image_key} is not in storage` });
      else if (found.sha256 !== r.sha256)
        problems.push({
          record_id: r.id,
          kind: 'digest',
          detail: `${r.image_key} has SHA-256 ${found.sha256}, the record says ${r.sha256}`,
        });
    }
    return { ok: problems.length === 0, records: links.length, files, problems };
  }
}
