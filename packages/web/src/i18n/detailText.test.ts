import { detail, DETAIL_KEYS, RISK_EVENTS } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { detailText } from './detailText.js';
import './machine.js';
import { loadLanguage, translate, type Language } from './format.js';
import type { MessageKey } from './zh.js';

// English is fetched when first chosen; these tests read it.
await loadLanguage('en-US');

const tOf = (lang: Language) => (key: MessageKey, params?: Record<string, string | number>) =>
  translate(lang, key, params);

/** One stored detail per kind, as the writers build them. */
const written = [
  detail.noFace(),
  detail.faces(2),
  detail.faceMismatch(0.41, 0.3),
  detail.phoneSeen(0.9),
  detail.faceFindings(2, [0.9, 0.8], 0.1),
  detail.faceVerified(9, false, 1, 0.1, null),
  detail.browserOffline(),
  detail.pageOpenedOffline(),
  detail.slowResponse(5100),
  detail.failedSends(3, 'request timed out', 'timeout'),
  detail.pageHidden(),
  detail.windowBlur(),
  detail.pageClosed(12),
  detail.leftFullscreen(),
  detail.paste(true, 'SELECT 1'),
  detail.trackEnded('camera', 'fake'),
  detail.trackMuted('screen', 'screen:0'),
  detail.phoneStopped(),
  detail.translated('html lang zh-CN -> fr'),
  detail.accountChanged('139****0000'),
  detail.check(-5, 'passed', '2d21'),
  detail.stepSkipped(-2),
  detail.riskPicture(17),
  detail.recording(5000),
  detail.capturedOffline(),
  detail.secondScreen({ when: 'change', screens: 2, labels: ['Built-in Retina Display', 'DELL U2720Q'] }),
  detail.virtualMachine({
    signs: ['softwareRenderer', 'virtualCamera'],
    renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
    screen: '1280x720@24',
    camera: 'OBS Virtual Camera 1280x720',
  }),
];

describe('detail words', () => {
  it('words every kind of detail in both languages with every placeholder filled', () => {
    expect(written.length).toBe(DETAIL_KEYS.length);
    for (const lang of ['zh-CN', 'en-US'] as const) {
      for (const text of written) {
        const shown = detailText(tOf(lang), text);
        expect(shown, text).not.toMatch(/[{}]/);
        expect(shown, text).not.toBe(text);
      }
    }
  });

  it('says what happened in the reader’s language', () => {
    expect(detailText(tOf('zh-CN'), detail.faces(2))).toBe('画面中有 2 张人脸');
    expect(detailText(tOf('en-US'), detail.noFace())).toBe('No face in the picture');
    expect(detailText(tOf('zh-CN'), detail.check(-5, 'passed', null))).toBe('摄像头检测：通过');
    expect(detailText(tOf('en-US'), detail.slowResponse(5100))).toBe('Saving an answer was slow (5.1 s)');
    expect(detailText(tOf('zh-CN'), '{"step":-4,"result":"skipped","device":null}')).toBe('麦克风检测：已跳过');
  });

  it('words a failed send by its error code, never the English message, and a picture taken offline', () => {
    const timedOut = detail.failedSends(3, 'request timed out', 'timeout');
    expect(detailText(tOf('zh-CN'), timedOut)).toBe('连续 3 次保存失败（响应超时，请重试）');
    expect(detailText(tOf('en-US'), timedOut)).not.toContain('{');
    const refused = detail.failedSends(4, 'server error', 'internal_error');
    expect(detailText(tOf('zh-CN'), refused)).not.toContain('server error');
    // Written before codes were kept: the message is all there is.
    expect(detailText(tOf('zh-CN'), detail.failedSends(3, 'Failed to fetch'))).toBe(
      '连续 3 次保存失败（Failed to fetch）',
    );
    expect(detailText(tOf('zh-CN'), 'offline')).toBe('断网时拍摄，恢复连接后上传');
    expect(detailText(tOf('en-US'), detail.capturedOffline())).toBe('Taken while offline, uploaded once back online');
  });

  it('names every risk event in both languages, the ones after the catalogue too', () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      for (const { id } of Object.values(RISK_EVENTS)) {
        const key = `risk.name.${id}` as MessageKey;
        expect(translate(lang, key), `${lang} ${key}`).not.toBe(key);
      }
    }
  });

  it('words a second screen and a virtual machine with their evidence', () => {
    const screen = detail.secondScreen({ when: 'check', screens: 2, labels: ['Built-in', 'DELL U2720Q'] });
    expect(detailText(tOf('en-US'), screen)).toBe(
      'A second screen is connected (seen at the device check): 2 screens (Built-in, DELL U2720Q)',
    );
    expect(detailText(tOf('zh-CN'), detail.secondScreen({ when: 'change', screens: null, labels: [] }))).toBe(
      '连接了第二块屏幕（考试中接入）',
    );
    const vm = detail.virtualMachine({
      signs: ['softwareRenderer'],
      renderer: 'SwiftShader driver',
      screen: '1280x720@24',
      camera: null,
    });
    expect(detailText(tOf('en-US'), vm)).toBe(
      'Signs of a virtual machine or remote desktop: software graphics renderer. Graphics: SwiftShader driver; screen 1280x720@24; camera: none',
    );
    expect(detailText(tOf('zh-CN'), vm)).toContain('SwiftShader driver');
  });

  it('shows details written before the vocabulary as they were written', () => {
    expect(detailText(tOf('en-US'), 'no face')).toBe('no face');
    expect(detailText(tOf('zh-CN'), 'risk record 17')).toBe('risk record 17');
  });
});
