import { describe, expect, it } from 'vitest';
import { summarizeBrowser } from './browser.js';

describe('summarizeBrowser', () => {
  it('names the browser and the system of common User-Agents, the specific app before the engine', () => {
    const cases: [string, string | null, string | null][] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome',
        'Windows',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge',
        'Windows',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        'Safari',
        'macOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49',
        'WeChat',
        'iOS',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox', 'Linux'],
      [
        'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36',
        'Chrome',
        'HarmonyOS',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36 DingTalk/7.6.0',
        'DingTalk',
        'Android',
      ],
    ];
    for (const [ua, browser, system] of cases) expect(summarizeBrowser(ua), ua).toEqual({ browser, system });
  });

  it('says nothing it cannot tell', () => {
    expect(summarizeBrowser(null)).toEqual({ browser: null, system: null });
    expect(summarizeBrowser('a-tool/1.0')).toEqual({ browser: null, system: null });
    expect(summarizeBrowser('curl/8.5.0')).toEqual({ browser: 'curl', system: null });
  });
});
