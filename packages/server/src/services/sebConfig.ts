/**
 * Safe Exam Browser's settings as a file and as a key, after SEB's developer documentation
 * (safeexambrowser.org/developer: "File Format" and "Config Key"): an unencrypted settings file is a plist (XML)
 * dictionary; its config key is the SHA-256, in lower-case hex, of the settings' "SEB-JSON" form; and SEB proves it
 * runs with them by sending, on every request, the SHA-256 of the request's absolute URL (fragment left out)
 * followed by the key. Pure: no database, no HTTP.
 */
import { createHash } from 'node:crypto';

/** A value of a SEB settings plist: a dictionary, an array, a string, a boolean, an integer or bytes (`<data>`). */
export type PlistValue = string | boolean | number | Uint8Array | PlistValue[] | PlistDict;
/** A plist dictionary. */
export interface PlistDict {
  [key: string]: PlistValue;
}

/** The key SEB leaves out of the config key: it records which SEB version saved a file, and configures nothing. */
const ORIGINATOR_KEY = 'originatorVersion';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Keys in SEB's order: case-insensitive and culture-invariant (SEB's documentation asks authors not to use two keys
 * that differ in case only, so no tie needs breaking beyond the plain comparison).
 */
function sortedKeys(d: PlistDict): string[] {
  const lower = (k: string) => k.toLowerCase();
  return Object.keys(d).sort((a, b) =>
    lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
}

/** A string as SEB-JSON writes it: quoted, with no escaping of backslashes (SEB's rule); quotes are escaped as JSON does. */
function jsonString(s: string): string {
  const placeholder = '\u0000';
  return JSON.stringify(s.replaceAll('\\', placeholder)).replaceAll('\\u0000', '\\');
}

/** One value in SEB-JSON form; undefined for an empty dictionary, which SEB leaves out. */
function jsonValue(v: PlistValue): string | undefined {
  if (typeof v === 'string') return jsonString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  if (v instanceof Uint8Array) return jsonString(Buffer.from(v).toString('base64'));
  if (Array.isArray(v)) {
    return `[${v
      .map(jsonValue)
      .filter((x) => x !== undefined)
      .join(',')}]`;
  }
  const parts = sortedKeys(v).flatMap((k) => {
    const inner = jsonValue(v[k]!);
    return inner === undefined ? [] : [`${jsonString(k)}:${inner}`];
  });
  return parts.length === 0 ? undefined : `{${parts.join(',')}}`;
}

/**
 * The settings' SEB-JSON form: `originatorVersion` removed, every dictionary's keys sorted case-insensitively at every
 * depth, empty dictionaries left out, no whitespace, no escaping of backslashes, bytes as Base64.
 */
export function sebJson(settings: PlistDict): string {
  const rest = Object.fromEntries(Object.entries(settings).filter(([k]) => k !== ORIGINATOR_KEY));
  return jsonValue(rest) ?? '{}';
}

/** The config key of settings: the lower-case hex SHA-256 of their SEB-JSON form. */
export function configKeyOf(settings: PlistDict): string {
  return sha256Hex(sebJson(settings));
}

/** What SEB sends in `X-SafeExamBrowser-ConfigKeyHash` (or, with a browser exam key, `-RequestHash`) for `url`. */
export function sebRequestHash(url: string, key: string): string {
  const hash = url.indexOf('#');
  return sha256Hex((hash < 0 ? url : url.slice(0, hash)) + key);
}

const escapeXml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function plistValue(v: PlistValue, indent: string): string {
  const inner = `${indent}  `;
  if (typeof v === 'string') return `${indent}<string>${escapeXml(v)}</string>`;
  if (typeof v === 'boolean') return `${indent}<${v ? 'true' : 'false'}/>`;
  if (typeof v === 'number') {
    return Number.isInteger(v) ? `${indent}<integer>${v}</integer>` : `${indent}<real>${v}</real>`;
  }
  if (v instanceof Uint8Array) return `${indent}<data>${Buffer.from(v).toString('base64')}</data>`;
  if (Array.isArray(v)) {
    if (v.length === 0) return `${indent}<array/>`;
    return [`${indent}<array>`, ...v.map((x) => plistValue(x, inner)), `${indent}</array>`].join('\n');
  }
  const keys = sortedKeys(v);
  if (keys.length === 0) return `${indent}<dict/>`;
  return [
    `${indent}<dict>`,
    ...keys.flatMap((k) => [`${inner}<key>${escapeXml(k)}</key>`, plistValue(v[k]!, inner)]),
    `${indent}</dict>`,
  ].join('\n');
}

/** Settings as an unencrypted SEB settings file: an XML property list, which SEB opens as it is. */
export function plistXml(settings: PlistDict): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    plistValue(settings, ''),
    '</plist>',
    '',
  ].join('\n');
}

/**
 * The settings an exam runs with in SEB: it opens the exam list at `publicUrl`, sends its keys in the request headers
 * (which the server checks), lets the page use the camera and the microphone (the device checks), allows one display
 * and no virtual machine, and only this site's pages.
 */
export function examSebSettings(publicUrl: string): PlistDict {
  const base = publicUrl.replace(/\/+$/, '');
  const site = new URL(base);
  return {
    startURL: `${base}/exams`,
    sendBrowserExamKey: true,
    allowQuit: true,
    allowVideoCapture: true,
    allowAudioCapture: true,
    allowedDisplaysMaxNumber: 1,
    allowedDisplayBuiltin: true,
    allowVirtualMachine: false,
    allowScreenSharing: false,
    allowSpellCheck: false,
    allowDictionaryLookup: false,
    allowPreferencesWindow: false,
    browserWindowAllowReload: true,
    showReloadButton: true,
    showTime: true,
    URLFilterEnable: true,
    URLFilterEnableContentFilter: false,
    URLFilterRules: [
      { action: 1, active: true, expression: `${site.host}${site.pathname.replace(/\/$/, '')}/*`, regex: false },
    ],
  };
}
