import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { configKeyOf, examSebSettings, plistXml, sebJson, sebRequestHash } from './sebConfig.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('the SEB-JSON form of settings (SEB developer documentation, "Config Key")', () => {
  it('sorts keys case-insensitively at every depth, inside arrays too, with no whitespace', () => {
    const json = sebJson({
      URLFilterEnable: false,
      allowWlan: false,
      allowedDisplayBuiltin: true,
      rules: [{ regex: false, action: 1, Active: true }],
    });
    expect(json).toBe(
      '{"allowedDisplayBuiltin":true,"allowWlan":false,"rules":[{"action":1,"Active":true,"regex":false}],"URLFilterEnable":false}',
    );
  });

  it('leaves out originatorVersion and empty dictionaries, writes bytes in Base64 and backslashes unescaped', () => {
    const json = sebJson({
      originatorVersion: 'SEB_Win_3.5',
      proxies: {},
      examKeySalt: new Uint8Array([1, 2, 3, 250]),
      browserMessagingSocket: 'ws:\\localhost:8706',
      quote: 'a"b',
    });
    expect(json).toBe('{"browserMessagingSocket":"ws:\\localhost:8706","examKeySalt":"AQID+g==","quote":"a\\"b"}');
  });

  it('makes the config key the SHA-256 of that form, in lower-case hex', () => {
    const settings = examSebSettings('https://exam.example.com');
    expect(configKeyOf(settings)).toBe(sha256(sebJson(settings)));
    expect(configKeyOf(settings)).toMatch(/^[0-9a-f]{64}$/);
    expect(configKeyOf({ originatorVersion: 'x' })).toBe(sha256('{}'));
  });
});

describe('the request hash SEB sends', () => {
  it('is the SHA-256 of the absolute URL without its fragment followed by the key', () => {
    const key = 'a'.repeat(64);
    const url = 'https://exam.example.com/api/exam/show?id=1&anid=2&auth=t';
    expect(sebRequestHash(url, key)).toBe(sha256(url + key));
    expect(sebRequestHash(`${url}#top`, key)).toBe(sha256(url + key));
  });
});

describe("an exam's settings file", () => {
  it('opens the exam list of the site, sends the keys in headers and allows the camera, one display and no VM', () => {
    const settings = examSebSettings('https://exam.example.com/hall/');
    expect(settings).toMatchObject({
      startURL: 'https://exam.example.com/hall/exams',
      sendBrowserExamKey: true,
      allowVideoCapture: true,
      allowAudioCapture: true,
      allowedDisplaysMaxNumber: 1,
      allowVirtualMachine: false,
      URLFilterRules: [{ action: 1, active: true, expression: 'exam.example.com/hall/*', regex: false }],
    });
  });

  it('is a plist dictionary with its keys in order and its text escaped', () => {
    const xml = plistXml({ startURL: 'https://e.example.com/exams?a=1&b=2', allowQuit: true, n: 3, list: [] });
    expect(xml).toContain('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN"');
    expect(xml).toMatch(
      /<dict>\s*<key>allowQuit<\/key>\s*<true\/>\s*<key>list<\/key>\s*<array\/>\s*<key>n<\/key>\s*<integer>3<\/integer>\s*<key>startURL<\/key>\s*<string>https:\/\/e\.example\.com\/exams\?a=1&amp;b=2<\/string>\s*<\/dict>/,
    );
  });
});
