import { ExamPhase, RISK_EVENTS, riskCategoryOf, type FaceRecognizeData } from '@examhall/contract';
import type { FastifyBaseLogger } from 'fastify';
import { fail } from '../http/errors.js';
import { faceSimilarity, PHONE_MIN_SCORE, type FaceAnalysis } from '../proctoring/face/engine.js';
import { ImageUnreadableError, sniffImage } from '../proctoring/face/image.js';
import { FaceBusyError, type FacePool } from '../proctoring/face/pool.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AttemptService } from './attempts.js';
import type { EvidenceService } from './evidence.js';
import type { RiskService } from './risk.js';

/**
 * Similarity (human's match.similarity, 0 to 1) below which the face is taken for someone else. On the
 * fixtures the same person scores 0.69 to 1 across crops and scales, different people 0.15 to 0.45;
 * human's own guidance is "above 0.5 is a likely match". 0.55 sits between the two groups.
 */
export const FACE_MATCH_THRESHOLD = 0.55;

/** Largest picture accepted, in bytes: a 1280x720 JPEG frame is 100 to 300 KB. */
export const FACE_IMG_MAX_BYTES = 4 * 1024 * 1024;

/** First-picture embeddings kept in memory (one per attempt); the oldest is dropped past this. */
export const FIRST_PICTURE_CACHE_SIZE = 2000;

/** The reference face of an attempt: its first picture's key and embedding (null when it shows no single face). */
interface Reference {
  key: string;
  embedding: number[] | null;
}

/**
 * Face checks: a picture's face count, its similarity to the attempt's first picture, and phones seen in it.
 * A failed check stores the picture as evidence and appends its risk event(s) to the attempt's chain.
 */
export class FaceCheckService {
  /** attempt id -> reference face; a Map keeps insertion order, so the first key is the oldest entry. */
  private readonly references = new Map<number, Reference>();

  constructor(
    private readonly attempts: AttemptService,
    private readonly evidence: EvidenceService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly pool: FacePool,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Loads the face models ahead of the first check, so the first candidate does not wait for them. */
  async warm(): Promise<void> {
    await this.pool.start();
  }

  /** POST /tools/face_recognize: checks one picture from the candidate's camera against their own attempt. */
  async recognize(c: Candidate, examId: number, picture: Buffer): Promise<FaceRecognizeData> {
    const attempt = await this.attempts.current(c, examId);
    if (!attempt) {
      await this.attempts.invitationByExam(c, examId);
      throw fail('exam_not_started');
    }
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    const seen = await this.analyze(picture);
    const faceCount = seen.faces.length;
    const phoneDetected = seen.phoneScore >= PHONE_MIN_SCORE;
    let similarity: number | null = null;
    if (faceCount === 1) {
      const ref = await this.reference(attempt);
      if (ref) similarity = round(faceSimilarity(seen.faces[0]!.embedding, ref));
    }
    // No ID photo exists in the data model (neither the profile nor the exam holds one), so there is nothing
    // to compare with; the field stays null until one does.
    const idSimilarity: number | null = null;

    let cameraProblem: string | null = null;
    if (faceCount === 0) cameraProblem = 'no face';
    else if (faceCount > 1) cameraProblem = `${faceCount} faces`;
    else if (similarity !== null && similarity < FACE_MATCH_THRESHOLD)
      cameraProblem = `face mismatch ${similarity.toFixed(2)}`;
    const passed = cameraProblem === null && !phoneDetected;

    let riskId: number | null = null;
    if (!passed) riskId = await this.recordFailure(attempt, picture, seen, cameraProblem, phoneDetected);
    return {
      face_count: faceCount,
      similarity,
      id_similarity: idSimilarity,
      phone_detected: phoneDetected,
      passed,
      risk_id: riskId,
    };
  }

  /** Runs the picture through the engine pool, mapping its failures to API errors. */
  private async analyze(picture: Buffer): Promise<FaceAnalysis> {
    if (picture.length > FACE_IMG_MAX_BYTES) throw fail('payload_too_large', 'face_img: too large');
    // Cheap refusal on the event loop: a picture that is no JPEG/PNG never reaches a worker.
    if (sniffImage(picture) === null) throw fail('image_unreadable', 'face_img: not a JPEG or PNG picture');
    try {
      return await this.pool.analyze(picture);
    } catch (err) {
      if (err instanceof ImageUnreadableError) throw fail('image_unreadable', `face_img: ${err.message}`);
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
    const phoneDetail = `phone seen ${seen.phoneScore.toFixed(2)}`;
    const first = cameraProblem !== null ? RISK_EVENTS.firstCameraAbnormal.id : RISK_EVENTS.phoneUse.id;
    const triggerTime = this.clock();
    const saved = await this.evidence.recordServerPicture(attempt, 'face', picture, {
      ext: sniffImage(picture) === 'png' ? 'png' : 'jpg',
      triggerTime,
      detail: JSON.stringify({
        faces: seen.faces.length,
        scores: seen.faces.map((f) => round(f.score)),
        phone: round(seen.phoneScore),
      }),
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

  /** The embedding of the attempt's first picture, computed once per attempt and kept in a bounded cache. */
  private async reference(attempt: AttemptRow): Promise<number[] | null> {
    const key = attempt.first_picture_key;
    if (!key) return null;
    const cached = this.references.get(attempt.id);
    if (cached && cached.key === key) {
      // refresh its place: recently used attempts stay
      this.references.delete(attempt.id);
      this.references.set(attempt.id, cached);
      return cached.embedding;
    }
    const bytes = await this.store.get(key);
    if (!bytes) return null;
    let embedding: number[] | null = null;
    try {
      const seen = await this.pool.analyze(bytes);
      // A first picture without exactly one face is no reference: comparing with it would be meaningless.
      if (seen.faces.length === 1 && seen.faces[0]!.embedding.length > 0) embedding = seen.faces[0]!.embedding;
    } catch (err) {
      if (err instanceof FaceBusyError) throw fail('rate_limited', 'face checks are busy; try again in a moment');
      if (!(err instanceof ImageUnreadableError)) throw err;
      this.log.warn({ attemptId: attempt.id }, 'first picture is not a readable image; face checks run without it');
    }
    this.references.set(attempt.id, { key, embedding });
    while (this.references.size > FIRST_PICTURE_CACHE_SIZE) {
      const oldest = this.references.keys().next().value;
      if (oldest === undefined) break;
      this.references.delete(oldest);
    }
    return embedding;
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
