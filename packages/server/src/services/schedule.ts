/**
 * What the schedule's services share (scheduleSlots.ts, accommodations.ts, slotChoice.ts): a slot as candidates
 * see it, a slot under its lock, invitations seated in a slot, and running attempts' ends moved after a change.
 * Seats are taken under a lock on the slot, so two candidates racing for its last seat cannot both get it.
 */
import type { SlotRef } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow } from '../repositories/exams.js';
import { ScheduleRepository, type SlotRow } from '../repositories/schedule.js';
import { attemptEnd, effectiveWindow } from './timing.js';

/** A slot as candidates see it. */
export const slotRef = (s: SlotRow): SlotRef => ({ id: s.id, label: s.label, start_at: s.start_at, end_at: s.end_at });

/** A slot of the exam, locked for the rest of `repo`'s transaction, or not found. */
export async function lockedSlot(repo: ScheduleRepository, examId: number, slotId: number): Promise<SlotRow> {
  const slot = await repo.lockSlot(slotId);
  if (!slot || slot.exam_id !== examId) throw fail('not_found', `no such slot ${slotId} of this exam`);
  return slot;
}

/** The invitations of the exam named in a bulk change, each one of them, or not found. */
export async function invitationsOf(repo: ScheduleRepository, examId: number, ids: readonly number[]) {
  const wanted = [...new Set(ids)];
  const rows = await repo.invitations(examId, wanted);
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing !== undefined) throw fail('not_found', `invitation_ids: no such invitation ${missing} of this exam`);
  return rows;
}

/**
 * Puts invitations into the slot or takes seats for them, under the slot's lock: `slot_full` when there are
 * fewer seats left than invitations that come in. Answers the invitations before the change.
 */
export async function seat(trx: Db, examId: number, ids: readonly number[], slotId: number | null) {
  const repo = new ScheduleRepository(trx);
  if (slotId !== null) {
    const slot = await lockedSlot(repo, examId, slotId);
    const rows = await invitationsOf(repo, examId, ids);
    const incoming = rows.filter((r) => r.slot_id !== slot.id).map((r) => r.id);
    const taken = await repo.taken(slot.id);
    if (taken + incoming.length > slot.capacity) {
      throw fail('slot_full', `${Math.max(0, slot.capacity - taken)} of ${slot.capacity} seats left`);
    }
    await repo.updateInvitations(incoming, { slot_id: slot.id });
    return { rows, slot };
  }
  const rows = await invitationsOf(repo, examId, ids);
  await repo.updateInvitations(
    rows.map((r) => r.id),
    { slot_id: null },
  );
  return { rows, slot: null };
}

/** Moves the end of running attempts (of these invitations, or all) to what the rules say now; answers how many. */
export async function moveRunningEnds(
  db: Db,
  notifier: Pick<ProctorNotifier, 'announce'>,
  exam: ExamRow,
  invitationIds: readonly number[] | undefined,
): Promise<number> {
  const repo = new ExamEditorRepository(db);
  const moved = await repo.moveRunningEnds(
    exam.id,
    (startedAt, inv, slot) =>
      attemptEnd(exam.mode, exam.time_minutes, inv, effectiveWindow(exam, inv, slot), startedAt),
    invitationIds,
  );
  if (moved > 0) {
    for (const id of await repo.runningAttemptIds(exam.id)) notifier.announce({ type: 'attempt', attemptId: id });
  }
  return moved;
}
