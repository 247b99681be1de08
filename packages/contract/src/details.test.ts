import { describe, expect, it } from 'vitest';
import { DETAIL_KEYS, describeDetail, detail, isCapturedOffline, type DetailKey } from './details.js';
import { DIMENSIONS, dimensionName, knownDimension } from './dimensions.js';

/** One written example per builder, with the parameters the reader must give back. */
const EXAMPLES: { [K in DetailKey]: [string, unknown] } = {
  noFace: [detail.noFace(), {}],
  faces: [detail.faces(2), { n: 2 }],
  faceMismatch: [detail.faceMismatch(0.41234, null), { similarity: 0.41, id_similarity: null }],
  phoneSeen: [detail.phoneSeen(0.876), { score: 0.88 }],
  faceFindings: [detail.faceFindings(2, [0.931, 0.5], 0.1), { faces: 2, scores: [0.93, 0.5], phone: 0.1 }],
  faceVerified: [
    detail.faceVerified(9, true, 0, 0.014, 'noFace'),
    { record: 9, agrees: true, faces: 0, phone: 0.01, finding: 'noFace' },
  ],
  browserOffline: [detail.browserOffline(), {}],
  pageOpenedOffline: [detail.pageOpenedOffline(), {}],
  slowResponse: [detail.slowResponse(5100.4), { ms: 5100 }],
  failedSends: [
    detail.failedSends(3, 'request timed out', 'timeout'),
    { n: 3, error: 'request timed out', code: 'timeout' },
  ],
  pageHidden: [detail.pageHidden(), {}],
  windowBlur: [detail.windowBlur(), {}],
  pageClosed: [detail.pageClosed(12.4), { s: 12 }],
  leftFullscreen: [detail.leftFullscreen(), {}],
  paste: [detail.paste(true, 'x'.repeat(250)), { blocked: true, length: 250, head: `${'x'.repeat(200)}…` }],
  trackEnded: [detail.trackEnded('camera', 'fake_device_0'), { track: 'camera', label: 'fake_device_0' }],
  trackMuted: [detail.trackMuted('microphone', 'mic'), { track: 'microphone', label: 'mic' }],
  phoneStopped: [detail.phoneStopped(), {}],
  translated: [detail.translated('html lang zh-CN -> fr'), { how: 'html lang zh-CN -> fr' }],
  accountChanged: [detail.accountChanged('138****8000'), { phone: '138****8000' }],
  check: [detail.check(-5, 'passed', 'cam-1'), { step: -5, result: 'passed', device: 'cam-1' }],
  stepSkipped: [detail.stepSkipped(-2), { step: -2 }],
  riskPicture: [detail.riskPicture(17), { record: 17 }],
  recording: [detail.recording(5000), { ms: 5000 }],
  capturedOffline: [detail.capturedOffline(), {}],
  secondScreen: [
    detail.secondScreen({ when: 'change', screens: 2, labels: ['Built-in', 'DELL U2720Q'] }),
    { when: 'change', screens: 2, labels: ['Built-in', 'DELL U2720Q'] },
  ],
  virtualMachine: [
    detail.virtualMachine({
      signs: ['softwareRenderer'],
      renderer: 'llvmpipe (LLVM 15.0.6, 256 bits)',
      screen: '1024x768@24',
      camera: null,
    }),
    { signs: ['softwareRenderer'], renderer: 'llvmpipe (LLVM 15.0.6, 256 bits)', screen: '1024x768@24', camera: null },
  ],
};

describe('detail vocabulary', () => {
  it('reads back what every builder writes', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...DETAIL_KEYS].sort());
    expect(Object.keys(detail).sort()).toEqual([...DETAIL_KEYS].sort());
    for (const key of DETAIL_KEYS) {
      const [text, params] = EXAMPLES[key];
      expect(describeDetail(text), key).toEqual({ key, params });
    }
  });

  it('leaves free text and malformed details to be shown as written', () => {
    for (const text of ['', 'no face', 'browser offline', 'risk record 17', '{oops', '[1,2]', 'null', '{"d":"nope"}']) {
      expect(describeDetail(text), text).toBeNull();
    }
    // A known kind with parameters that do not fit is not guessed at.
    expect(describeDetail('{"d":"faces","n":"two"}')).toBeNull();
    expect(describeDetail('{"d":"check","step":3,"result":"passed","device":null}')).toBeNull();
  });

  it('reads the bare mark of a picture taken offline, written before the vocabulary, as its kind', () => {
    expect(describeDetail('offline')).toEqual({ key: 'capturedOffline', params: {} });
    expect(isCapturedOffline('offline')).toBe(true);
    expect(isCapturedOffline(detail.capturedOffline())).toBe(true);
    expect(isCapturedOffline('')).toBe(false);
    expect(isCapturedOffline(detail.browserOffline())).toBe(false);
  });

  it('keeps a failed send without a code readable', () => {
    expect(describeDetail(detail.failedSends(3, 'Failed to fetch'))).toEqual({
      key: 'failedSends',
      params: { n: 3, error: 'Failed to fetch' },
    });
  });

  it('reads check records written before the vocabulary', () => {
    expect(describeDetail('{"step":-5,"result":"passed","device":"2d21"}')).toEqual({
      key: 'check',
      params: { step: -5, result: 'passed', device: '2d21' },
    });
    expect(describeDetail('{"step":-1,"result":"passed"}')).toEqual({
      key: 'check',
      params: { step: -1, result: 'passed', device: null },
    });
  });
});

describe('dimension catalogue', () => {
  it('names well-known dimensions in both languages and leaves others as written', () => {
    expect(dimensionName('teamwork', 'zh')).toBe('团队协作');
    expect(dimensionName(' Teamwork ', 'en')).toBe('Teamwork');
    expect(dimensionName('Customer focus', 'zh')).toBe('客户导向');
    expect(dimensionName('抗压能力', 'en')).toBe('Resilience');
    expect(dimensionName('curiosity', 'zh')).toBe('curiosity');
    expect(knownDimension('curiosity')).toBeUndefined();
    expect(new Set(DIMENSIONS.map((d) => d.id)).size).toBe(DIMENSIONS.length);
  });
});
