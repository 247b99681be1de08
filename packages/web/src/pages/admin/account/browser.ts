/**
 * A session's browser in a few words, from its User-Agent: the browser or app and the system it runs on
 * ("Chrome · Windows", "微信 · iOS"), so that a staff member can tell their sessions apart. Names are the products'
 * own; a part it cannot tell is null and the page says so in its language.
 */
export interface BrowserSummary {
  browser: string | null;
  system: string | null;
}

/** The apps and browsers we can tell apart, the more specific first (Edge and the in-app browsers say Chrome too). */
const BROWSERS: readonly [RegExp, string][] = [
  [/MicroMessenger\//, 'WeChat'],
  [/wxwork\//i, 'WeCom'],
  [/DingTalk\//i, 'DingTalk'],
  [/Lark\/|Feishu\//i, 'Feishu'],
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera\//, 'Opera'],
  [/QQBrowser\//, 'QQ Browser'],
  [/UCBrowser\//, 'UC Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Android/, 'Android'],
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux|X11/, 'Linux'],
];

function firstMatch(text: string, table: readonly [RegExp, string][]): string | null {
  return table.find(([pattern]) => pattern.test(text))?.[1] ?? null;
}

/** What a User-Agent says of the browser and the system (null when it says nothing we know). */
export function summarizeBrowser(userAgent: string | null): BrowserSummary {
  if (!userAgent) return { browser: null, system: null };
  // HarmonyOS phones also say Android: the more specific name wins.
  const system = /HarmonyOS|OpenHarmony/.test(userAgent) ? 'HarmonyOS' : firstMatch(userAgent, SYSTEMS);
  return { browser: firstMatch(userAgent, BROWSERS), system };
}
