import { createHash } from 'node:crypto';
import {
  api,
  cameraProblem,
  detail,
  ExamPhase,
  FACE_MATCH_THRESHOLD,
  PHONE_MIN_SCORE,
  FACE_IMG_MAX_BYTES as CONTRACT_FACE_IMG_MAX_BYTES,
  RISK_EVENTS,
  riskCategoryOf,
  type CameraProblem,
  type FaceRecognizeData,
  type IdPhotoData,
} from '@examhall/contract';
import type { ServiceLog } from '../log.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { faceSimilarity, type FaceAnalysis } from '../proctoring/face/engine.js';
import { ImageUnreadableError, sniffImage } from '../proctoring/face/image.js';
import { FaceBusyError, type FacePool } from '../proctoring/face/pool.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { ExamRepository, type InvitationRow } from '../repositories/exams.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { AttemptService } from './attempts.js';
import type { EvidenceIntakeService } from './evidence/intake.js';
import type { RiskService } from './risk.js';
import { NO_INSTRUMENTS, secondsSince, type Instruments } from '../ops/metrics.js';

/** Similarity below which a face is taken for someone else (the contract's rule, shared with the web app). */
export { FACE_MATCH_THRESHOLD };

/** Largest picture accepted, in bytes (the contract's limit, which the console checks before uploading). */
export const FACE_IMG_MAX_BYTES = CONTRACT_FACE_IMG_MAX_BYTES;

/** First-picture embeddings kept in memory (one per attempt); the oldest is dropped past this. */
export const FIRST_PICTURE_CACHE_SIZE = 2000;

/** ID-photo embeddings kept in memory (one per invitation); the oldest is dropped past this. */
export const ID_PHOTO_CACHE_SIZE = 2000;

/** How long the link to an ID photo that the upload answers works. */
const ID_PHOTO_URL_TTL_S = 15 * 60;

/**
 * A reference face: the picture it comes from (a first picture's key, an ID photo's SHA-256), how many faces it
 * shows and its embedding (null when it shows no single face).
 */
interface Reference {
  source: string;
  faces: number;
  embedding: number[] | null;
}

/** What the face engine makes of an attempt's first picture, the camera step's evidence. */
export interface FirstPictureVerdict {
  /** Faces found (0 when there is no first picture or it cannot be read). */
  faces: number;
  /** Similarity to the invitation's ID photo, null without one. */
  idSimilarity: number | null;
  /** Why the camera step does not pass on it, null when it does. */
  problem: CameraProblem | 'no_picture' | null;
}

/** What the face check makes of one picture (see FaceCheckService.assess). */
export interface FaceAssessment {
  /** What the engine saw. */
  seen: FaceAnalysis;
  /** Similarity of the one face to the attempt's first picture, null without a comparison. */
  similarity: number | null;
  /** Similarity of the one face to the invitation's ID photo, null without a comparison. */
  idSimilarity: number | null;
  /** The camera finding's detail (no face, several faces, another person), null when none. */
  cameraFinding: string | null;
  /** The camera finding's detail kind, null when none. */
  cameraKind: 'noFace' | 'faces' | 'faceMismatch' | null;
  /** A phone was seen. */
  phoneDetected: boolean;
  /** No finding and no phone. */
  passed: boolean;
}

/** Where an ID photo is kept: outside every attempt's prefix, so no candidate's upload credentials reach it. */
export function idPhotoKey(examId: number, invitationId: number, ext: 'jpg' | 'png'): string {
  return `id-photos/${examId}/${invitationId}.${ext}`;
}

/** Whose ID photo a staff member sets: an attempt's invitation, or the invitation of a phone. */
export type IdPhotoTarget = { examId: number } & ({ attemptId: number } | { phone: string; areaCode: string });

/** Keeps `value` as the newest entry of a bounded map, dropping the oldest entries past `max`. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/**
 * Face checks: a picture's face count, its similarity to the attempt's first picture and to the invitation's ID
 * photo, and phones seen in it. A failed check stores the picture as evidence and appends its risk event(s) to
 * the attempt's chain. Also stores the ID photos staff set, refusing any that does not show exactly one face.
 */
export class FaceCheckService {
  /** attempt id -> reference face; a Map keeps insertion order, so the first key is the oldest entry. */
  private readonly references = new Map<number, Reference>();
  /** invitation id -> its ID photo's face, by the photo's SHA-256. */
  private readonly idReferences = new Map<number, Reference>();
  private readonly exams: ExamRepository;

  constructor(
    db: Db,
    private readonly attempts: AttemptService,
    private readonly evidence: EvidenceIntakeService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly pool: FacePool,
    private readonly clock: () => number,
    private readonly log: ServiceLog,
    private readonly metrics: Instruments = NO_INSTRUMENTS,
  ) {
    this.exams = new ExamRepository(db);
  }

  /** Loads the face models ahead of the first check, so the first candidate does not wait for them. */
  async warm(): Promise<void> {
    await this.pool.start();
  }

  /** POST /tools/face_recognize: checks one picture from the candidate's camera against their own attempt. */
  async recognize(c: Candidate, examId: number, picture: Buffer): Promise<FaceRecognizeData> {
    const attempt = await this.attempts.started(c, examId);
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    const a = await this.assess(attempt, picture, 'face_img');
    let riskId: number | null = null;
    if (!a.passed) riskId = await this.recordFailure(attempt, picture, a.seen, a.cameraFinding, a.phoneDetected);
    return {
      face_count: a.seen.faces.length,
      similarity: a.similarity,
      id_similarity: a.idSimilarity,
      phone_detected: a.phoneDetected,
      passed: a.passed,
      risk_id: riskId,
    };
  }

  /**
   * What the face check makes of one picture of an attempt's camera, without recording anything: its faces, their
   * similarity to the attempt's first picture and the invitation's ID photo, the camera finding (no face, several,
   * another person) and a phone. Throws the API errors of a picture too large, unreadable, or checks too busy.
   */
  async assess(attempt: AttemptRow, picture: Buffer, field = 'picture'): Promise<FaceAssessment> {
    const seen = await this.analyze(picture, field);
    const faceCount = seen.faces.length;
    const phoneDetected = seen.phoneScore >= PHONE_MIN_SCORE;
    let similarity: number | null = null;
    let idSimilarity: number | null = null;
    if (faceCount === 1) {
      const face = seen.faces[0]!.embedding;
      const ref = (await this.reference(attempt))?.embedding;
      if (ref) similarity = round(faceSimilarity(face, ref));
      const idRef = await this.idReference(attempt);
      if (idRef) idSimilarity = round(faceSimilarity(face, idRef));
    }

    let cameraFinding: string | null = null;
    let cameraKind: FaceAssessment['cameraKind'] = null;
    if (faceCount === 0) [cameraFinding, cameraKind] = [detail.noFace(), 'noFace'];
    else if (faceCount > 1) [cameraFinding, cameraKind] = [detail.faces(faceCount), 'faces'];
    else {
      // Both comparisons are named when both fail: the proctor sees which reference the face departs from.
      const first = similarity !== null && similarity < FACE_MATCH_THRESHOLD ? similarity : null;
      const id = idSimilarity !== null && idSimilarity < FACE_MATCH_THRESHOLD ? idSimilarity : null;
      if (first !== null || id !== null) [cameraFinding, cameraKind] = [detail.faceMismatch(first, id), 'faceMismatch'];
    }
    return {
      seen,
      similarity,
      idSimilarity,
      cameraFinding,
      cameraKind,
      phoneDetected,
      passed: cameraFinding === null && !phoneDetected,
    };
  }

  /**
   * POST /admin/proctor/id-photo: stores the ID photo of an invitation (replacing an earlier one) once the
   * engine finds exactly one face in it; later face checks of the invitation's attempts compare with it.
   */
  async setIdPhoto(staff: StaffActor, target: IdPhotoTarget, picture: Buffer): Promise<IdPhotoData> {
    await this.access.requireFor(staff, api.proctorIdPhoto, target.examId);
    await this.attempts.bundle(target.examId);
    const invitation = await this.invitationOf(target);
    const seen = await this.analyze(picture, 'id_photo');
    const face = seen.faces.length === 1 ? seen.faces[0]!.embedding : [];
    if (face.length === 0) {
      throw fail('id_photo_no_single_face', `id_photo: ${seen.faces.length} faces found, exactly one is needed`);
    }
    const key = idPhotoKey(target.examId, invitation.id, sniffImage(picture) === 'png' ? 'png' : 'jpg');
    const { sha256 } = await this.store.put(key, picture);
    await this.exams.setIdPhoto(invitation.id, key, sha256);
    remember(this.idReferences, invitation.id, { source: sha256, faces: 1, embedding: face }, ID_PHOTO_CACHE_SIZE);
    await this.audit.record(
      staff,
      'proctor.id_photo',
      { kind: 'invitation', id: invitation.id },
      { id_photo_key: invitation.id_photo_key, id_photo_sha256: invitation.id_photo_sha256 },
      { id_photo_key: key, id_photo_sha256: sha256 },
    );
    let url: string | null = null;
    try {
      url = await this.store.presignGet(key, ID_PHOTO_URL_TTL_S);
    } catch (err) {
      this.log.warn({ err, key }, 'no link for a stored ID photo');
    }
    return { invitation_id: invitation.id, sha256, id_photo_url: url };
  }

  /** The invitation an ID photo is for; not found unless it is an invitation to the exam named. */
  private async invitationOf(target: IdPhotoTarget): Promise<InvitationRow> {
    let invitation: InvitationRow | undefined;
    if ('attemptId' in target) {
      const attempt = await this.attempts.byId(target.attemptId);
      if (attempt && attempt.exam_id === target.examId) invitation = await this.exams.invitation(attempt.invitation_id);
      if (!invitation) throw fail('not_found', 'no such attempt at this exam');
    } else {
      invitation = await this.exams.invitationFor(target.examId, target.areaCode, target.phone);
      if (!invitation) throw fail('not_found', 'this phone is not invited to the exam');
    }
    return invitation;
  }

  /** Runs the picture through the engine pool, mapping its failures to API errors named after the form field. */
  private async analyze(picture: Buffer, field: string): Promise<FaceAnalysis> {
    if (picture.length > FACE_IMG_MAX_BYTES) throw fail('payload_too_large', `${field}: too large`);
    // Cheap refusal on the event loop: a picture that is no JPEG/PNG never reaches a worker.
    if (sniffImage(picture) === null) throw fail('image_unreadable', `${field}: not a JPEG or PNG picture`);
    const started = performance.now();
    try {
      const seen = await this.pool.analyze(picture);
      this.metrics.faceChecked('ok', secondsSince(started));
      return seen;
    } catch (err) {
      this.metrics.faceChecked('error', secondsSince(started));
      if (err instanceof ImageUnreadableError) throw fail('image_unreadable', `${field}: ${err.message}`);
      if (err instanceof FaceBusyError) throw fail('rate_limited', 'face checks are busy; try again in a moment');
      throw err;
    }
  }

  /**
   * Stores the picture as evidence with its risk event: camera abnormal (11) for no, several or another face,
   * phone use (7) for a phone; both when both. Returns the first risk record's id.
   */
  private async recordFailure(
    attempt: AttemptRow,
    picture: Buffer,
    seen: FaceAnalysis,
    cameraProblem: string | null,
    phoneDetected: boolean,
  ): Promise<number | null> {
    const phoneDetail = detail.phoneSeen(seen.phoneScore);
    const first = cameraProblem !== null ? RISK_EVENTS.firstCameraAbnormal.id : RISK_EVENTS.phoneUse.id;
    const triggerTime = this.clock();
    const saved = await this.evidence.recordServerPicture(attempt, 'face', picture, {
      ext: sniffImage(picture) === 'png' ? 'png' : 'jpg',
      triggerTime,
      detail: detail.faceFindings(
        seen.faces.length,
        seen.faces.map((f) => f.score),
        seen.phoneScore,
      ),
      risk: first,
      riskDetail: cameraProblem ?? phoneDetail,
    });
    if (cameraProblem !== null && phoneDetected) {
      await this.risk.append(attempt.id, `server-risk-phone:${saved.key}`, {
        attempt_id: attempt.id,
        risk: RISK_EVENTS.phoneUse.id,
        category: riskCategoryOf(RISK_EVENTS.phoneUse.id),
        trigger_time: triggerTime,
        detail: phoneDetail,
        image_key: saved.key,
      });
    }
    return saved.riskId;
  }

  /**
   * The camera step's verdict on the attempt's first picture (the one recorded with its SHA-256, read back from
   * storage, so the browser's word is not taken for it): exactly one face, matching the ID photo when there is one.
   */
  async firstPictureVerdict(attempt: AttemptRow): Promise<FirstPictureVerdict> {
    const ref = await this.reference(attempt);
    if (!ref) return { faces: 0, idSimilarity: null, problem: 'no_picture' };
    let idSimilarity: number | null = null;
    if (ref.embedding) {
      const idRef = await this.idReference(attempt);
      if (idRef) idSimilarity = round(faceSimilarity(ref.embedding, idRef));
    }
    return { faces: ref.faces, idSimilarity, problem: cameraProblem(ref.faces, idSimilarity) };
  }

  /** The attempt's first picture as a reference face, analysed once per picture and kept in a bounded cache. */
  private async reference(attempt: AttemptRow): Promise<Reference | null> {
    const key = attempt.first_picture_key;
    if (!key) return null;
    const cached = this.references.get(attempt.id);
    if (cached && cached.source === key) {
      // refresh its place: recently used attempts stay
      remember(this.references, attempt.id, cached, FIRST_PICTURE_CACHE_SIZE);
      return cached;
    }
    const bytes = await this.store.get(key);
    if (!bytes) return null;
    const ref = { source: key, ...(await this.singleFace(bytes, attempt, 'first picture')) };
    remember(this.references, attempt.id, ref, FIRST_PICTURE_CACHE_SIZE);
    return ref;
  }

  /**
   * The embedding of the ID photo of the attempt's invitation, or null without one. Cached per invitation and
   * keyed by the photo's SHA-256, so a photo replaced (in this process or another) is read again.
   */
  private async idReference(attempt: AttemptRow): Promise<number[] | null> {
    const invitation = await this.exams.invitation(attempt.invitation_id);
    const key = invitation?.id_photo_key;
    const recorded = invitation?.id_photo_sha256;
    if (!invitation || !key || !recorded) return null;
    const cached = this.idReferences.get(invitation.id);
    if (cached && cached.source === recorded) {
      remember(this.idReferences, invitation.id, cached, ID_PHOTO_CACHE_SIZE);
      return cached.embedding;
    }
    const bytes = await this.store.get(key);
    if (!bytes) {
      this.log.warn({ invitationId: invitation.id, key }, 'ID photo missing from storage; face checks run without it');
      return null;
    }
    const seen = await this.singleFace(bytes, attempt, 'ID photo');
    // Bytes that differ from the recorded digest are a replacement caught half-way: use them, keep nothing.
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 === recorded) {
      remember(this.idReferences, invitation.id, { source: sha256, ...seen }, ID_PHOTO_CACHE_SIZE);
    }
    return seen.embedding;
  }

  /**
   * The faces of a reference picture and the embedding of its one face; the embedding is null when it shows none
   * or several, and a picture that can't be read shows no face.
   */
  private async singleFace(
    bytes: Buffer,
    attempt: AttemptRow,
    what: string,
  ): Promise<{ faces: number; embedding: number[] | null }> {
    try {
      const seen = await this.pool.analyze(bytes);
      // A reference without exactly one face is no reference: comparing with it would be meaningless.
      const one = seen.faces.length === 1 && seen.faces[0]!.embedding.length > 0;
      return { faces: seen.faces.length, embedding: one ? seen.faces[0]!.embedding : null };
    } catch (err) {
      if (err instanceof FaceBusyError) throw fail('rate_limited', 'face checks are busy; try again in a moment');
      if (!(err instanceof ImageUnreadableError)) throw err;
      this.log.warn({ attemptId: attempt.id }, `${what} is not a readable image; face checks run without it`);
    }
    return { faces: 0, embedding: null };
  }

  /** Stops the engine's worker threads. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Two decimals: similarities and scores are estimates, more digits only suggest precision. */
function round(x: number): number {
  return Math.round(x * 100) / 100;
}
