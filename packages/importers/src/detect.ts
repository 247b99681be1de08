/** Which format a file is in, from its name and its first bytes. */
import { looksBinary } from './text.js';
import type { Format } from './types.js';
import { unzipSync } from 'fflate';
import { isZip } from './zip.js';

const BY_EXTENSION: Record<string, Format> = {
  gift: 'gift',
  txt: 'gift',
  zip: 'qti',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  csv: 'csv',
  fps: 'fps',
};

/** What a zip holds, from its central directory (nothing is inflated): a workbook, a problem zip or QTI. */
function zipFlavour(bytes: Uint8Array, ext: string): Format {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter: (info) => {
        if (names.length < 10_000) names.push(info.name);
        return false;
      },
    });
  } catch {
    return ext === 'xlsx' || ext === 'xlsm' ? 'xlsx' : 'qti';
  }
  if (names.includes('xl/workbook.xml')) return 'xlsx';
  if (names.some((n) => /^([^/]+\/)?problem\.json$/.test(n))) return 'problem_zip';
  return 'qti';
}

/** Sniffs XML: Moodle's `<quiz>` or a QTI item/test/manifest; null for anything else. */
export function xmlFlavour(head: string): Format | null {
  const root = /<(?!\?|!)([A-Za-z_][\w.:-]*)/.exec(head.replace(/<!--[\s\S]*?-->/g, ''))?.[1]?.replace(/^.*:/, '');
  if (!root) return null;
  if (root === 'quiz') return 'moodle_xml';
  if (root === 'fps') return 'fps';
  if (/^(assessmentItem|assessmentTest|qti-assessment-item|qti-assessment-test|manifest)$/.test(root)) return 'qti';
  return null;
}

/**
 * The format of a file: a zip is a workbook, a problem zip (a `problem.json`) or a QTI package; XML by its root
 * element (`fps` is FreeProblemSet); `.csv` is CSV; `.gift`/`.txt` or text with an answer block is GIFT. The
 * extension decides when the content is ambiguous; null when nothing fits.
 */
export function detectFormat(name: string, bytes: Uint8Array): Format | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (isZip(bytes)) return zipFlavour(bytes, ext);
  if (ext === 'xml') {
    const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
    return xmlFlavour(head) ?? 'moodle_xml';
  }
  if (BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  if (looksBinary(bytes)) return null;
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\ufeff/, '');
  if (/^\s*</.test(head)) return xmlFlavour(head);
  if (/\{[\s\S]*\}/.test(head) || /^\s*(\/\/|::|\$CATEGORY:)/m.test(head)) return 'gift';
  return null;
}
