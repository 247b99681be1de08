/**
 * The exam page's rule for camera frames (docs/contract.md#risk-events): what a frame's faces and phone score
 * make of it, the server's face check's rule (services/faceCheck.ts) applied in the browser, and each problem
 * raised once per episode: a problem seen on frame after frame is one risk record, raised again only after a
 * frame without it. Pure, so it is tested without a camera or the face models.
 */
import { detail, FACE_MATCH_THRESHOLD, PHONE_MIN_SCORE, type RiskEventKey } from '@examhall/contract';

/** What the face models saw in one frame. */
export interface FrameSeen {
  /** Faces found, each with its description vector (empty when it could not be computed). */
  faces: readonly { embedding: readonly number[] }[];
  /** Best "cell phone" score of the object detector, 0 when none was seen. */
  phoneScore: number;
}

/** A problem a frame shows, by the detail kind that names it. */
export type FaceProblem = 'noFace' | 'faces' | 'faceMismatch' | 'phoneSeen';

/** One problem to raise: the catalogue's event and the detail the proctor reads. */
export interface FaceFinding {
  problem: FaceProblem;
  risk: RiskEventKey;
  detail: string;
}

/** Similarity of two face descriptions, 0 to 1 (human's match.similarity in the page). */
export type Similarity = (a: readonly number[], b: readonly number[]) => number;

/**
 * The problems of one frame, as the server's face check finds them: no face, several faces, or one face unlike
 * the reference (camera abnormal, 11); a phone (phone use, 7). Without a reference the one face is not compared.
 */
export function frameFindings(
  seen: FrameSeen,
  reference: readonly number[] | null,
  similarity: Similarity,
): FaceFinding[] {
  const found: FaceFinding[] = [];
  const n = seen.faces.length;
  if (n === 0) found.push({ problem: 'noFace', risk: 'firstCameraAbnormal', detail: detail.noFace() });
  else if (n > 1) found.push({ problem: 'faces', risk: 'firstCameraAbnormal', detail: detail.faces(n) });
  else {
    const face = seen.faces[0]!.embedding;
    if (reference && face.length > 0) {
      const s = similarity(face, reference);
      if (s < FACE_MATCH_THRESHOLD)
        found.push({ problem: 'faceMismatch', risk: 'firstCameraAbnormal', detail: detail.faceMismatch(s, null) });
    }
  }
  if (seen.phoneScore >= PHONE_MIN_SCORE)
    found.push({ problem: 'phoneSeen', risk: 'phoneUse', detail: detail.phoneSeen(seen.phoneScore) });
  return found;
}

/**
 * The monitor's memory across frames: the reference face (the first frame of the page with exactly one face, so
 * another person who takes the seat later is seen; the server compares with the first picture and the ID photo)
 * and which problems are going on now, so each episode is raised once.
 */
export class FaceEpisodes {
  private reference: readonly number[] | null = null;
  private ongoing = new Set<FaceProblem>();

  constructor(private readonly similarity: Similarity) {}

  /** Takes the next frame; answers the problems that start with it (the ones to raise). */
  next(seen: FrameSeen): FaceFinding[] {
    const found = frameFindings(seen, this.reference, this.similarity);
    if (this.reference === null && seen.faces.length === 1 && seen.faces[0]!.embedding.length > 0) {
      this.reference = [...seen.faces[0]!.embedding];
    }
    const fresh = found.filter((f) => !this.ongoing.has(f.problem));
    this.ongoing = new Set(found.map((f) => f.problem));
    return fresh;
  }
}
