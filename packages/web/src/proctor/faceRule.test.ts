import { describeDetail, FACE_MATCH_THRESHOLD, PHONE_MIN_SCORE } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { FaceEpisodes, frameFindings, type FrameSeen } from './faceRule.js';

/** Cosine similarity: enough to tell the test's "people" apart. */
const cosine = (a: readonly number[], b: readonly number[]) => {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};
const alice = [1, 0, 0];
const bob = [0, 1, 0];
const frame = (faces: number[][], phoneScore = 0): FrameSeen => ({
  faces: faces.map((embedding) => ({ embedding })),
  phoneScore,
});
const problems = (f: { problem: string }[]) => f.map((x) => x.problem);

describe('frameFindings', () => {
  it("names the server's findings: no face, several faces, another person, a phone", () => {
    expect(frameFindings(frame([]), null, cosine)).toEqual([
      { problem: 'noFace', risk: 'firstCameraAbnormal', detail: '{"d":"noFace"}' },
    ]);
    const two = frameFindings(frame([alice, bob]), alice, cosine);
    expect(two.map((f) => [f.risk, describeDetail(f.detail)])).toEqual([
      ['firstCameraAbnormal', { key: 'faces', params: { n: 2 } }],
    ]);
    const other = frameFindings(frame([bob]), alice, cosine);
    expect(other.map((f) => [f.risk, describeDetail(f.detail)])).toEqual([
      ['firstCameraAbnormal', { key: 'faceMismatch', params: { similarity: 0, id_similarity: null } }],
    ]);
    const phone = frameFindings(frame([alice], PHONE_MIN_SCORE), alice, cosine);
    expect(phone.map((f) => [f.risk, describeDetail(f.detail)])).toEqual([
      ['phoneUse', { key: 'phoneSeen', params: { score: PHONE_MIN_SCORE } }],
    ]);
    expect(problems(frameFindings(frame([], 0.9), null, cosine))).toEqual(['noFace', 'phoneSeen']);
  });

  it('finds nothing in one face like the reference, or one face with nothing to compare with', () => {
    expect(frameFindings(frame([alice], PHONE_MIN_SCORE - 0.01), alice, cosine)).toEqual([]);
    expect(frameFindings(frame([bob]), null, cosine)).toEqual([]);
    // a face without a description is not compared
    expect(frameFindings(frame([[]]), alice, cosine)).toEqual([]);
    // the threshold itself is a match, as on the server
    expect(frameFindings(frame([alice]), alice, () => FACE_MATCH_THRESHOLD)).toEqual([]);
  });
});

describe('FaceEpisodes', () => {
  it('raises each problem once per episode, again after a frame without it', () => {
    const e = new FaceEpisodes(cosine);
    expect(problems(e.next(frame([alice])))).toEqual([]);
    expect(problems(e.next(frame([])))).toEqual(['noFace']);
    expect(problems(e.next(frame([])))).toEqual([]);
    expect(problems(e.next(frame([], 0.8)))).toEqual(['phoneSeen']);
    expect(problems(e.next(frame([], 0.8)))).toEqual([]);
    expect(problems(e.next(frame([alice])))).toEqual([]);
    expect(problems(e.next(frame([])))).toEqual(['noFace']);
  });

  it('takes the first frame with one face as the reference: a later other person is raised, the first never', () => {
    const e = new FaceEpisodes(cosine);
    expect(problems(e.next(frame([alice, bob])))).toEqual(['faces']);
    expect(problems(e.next(frame([alice])))).toEqual([]);
    expect(problems(e.next(frame([bob])))).toEqual(['faceMismatch']);
    expect(problems(e.next(frame([bob])))).toEqual([]);
    expect(problems(e.next(frame([alice])))).toEqual([]);
  });
});
