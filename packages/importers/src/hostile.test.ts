import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importFile } from './index.js';

const ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i1" title="t">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
<itemBody><p>Q</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody>
</assessmentItem>`;
const MANIFEST = (href: string) =>
  `<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="${href}"/></resources></manifest>`;

/** Imports and expects a refusal with one located error of the given code, quickly. */
async function refused(name: string, bytes: Uint8Array, code: string) {
  const started = performance.now();
  const r = await importFile({ name, bytes });
  expect(performance.now() - started).toBeLessThan(5000);
  expect(r.refused).toBe(true);
  expect(r.questions).toEqual([]);
  expect(r.problems).toHaveLength(1);
  expect(r.problems[0]!.code).toBe(code);
  expect(r.problems[0]!.severity).toBe('error');
  return r.problems[0]!;
}

describe('hostile files are refused with a located error, in bounded time and memory', () => {
  it('a zip whose entry escapes its folder (../)', async () => {
    const zip = zipSync({ 'imsmanifest.xml': strToU8(MANIFEST('item.xml')), '../etc/passwd': strToU8('root:x:0:0') });
    const p = await refused('evil.zip', zip, 'zip_path_escape');
    expect(p.where.file).toBe('../etc/passwd');
    expect(p.message).toContain('../etc/passwd');
  });

  it('an absolute entry path', async () => {
    const zip = zipSync({ '/etc/passwd': strToU8('x') });
    await refused('evil.zip', zip, 'zip_path_escape');
  });

  it('a manifest href that escapes the package is a located problem and reads nothing', async () => {
    const zip = zipSync({ 'imsmanifest.xml': strToU8(MANIFEST('../../secret.xml')), 'item.xml': strToU8(ITEM) });
    const r = await importFile({ name: 'p.zip', bytes: zip });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.where.file])).toEqual([['zip_path_escape', 'imsmanifest.xml']]);
  });

  it('a zip bomb: 64 MB of zeros in a small zip, refused from the declared sizes before inflating', async () => {
    const zeros = new Uint8Array(64 * 1024 * 1024);
    const zip = zipSync({ 'imsmanifest.xml': strToU8(MANIFEST('bomb.xml')), 'bomb.xml': zeros }, { level: 9 });
    expect(zip.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    await refused('bomb.zip', zip, 'zip_bomb');
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('a zip bomb that lies about its size: inflating stops at the declared size', async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const zip = zipSync({ 'a.xml': zeros }, { level: 9 });
    // Patch the declared uncompressed size (local header at 22, central directory at 24) down to 1 KB.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint32(22, 1024, true);
    const central = zip.findLastIndex((_b, i) => i + 4 <= zip.length && view.getUint32(i, true) === 0x02014b50);
    view.setUint32(central + 24, 1024, true);
    const p = await refused('liar.zip', zip, 'zip_bomb');
    expect(p.where.file).toBe('a.xml');
    expect(p.message).toContain('inflates past its declared 1024 bytes');
  });

  it('a zip entry packed far tighter than documents pack (ratio), even under the size limits', async () => {
    const zip = zipSync({ 'imsmanifest.xml': strToU8(MANIFEST('z.xml')), 'z.xml': new Uint8Array(4 * 1024 * 1024) });
    const p = await refused('ratio.zip', zip, 'zip_bomb');
    expect(p.where.file).toBe('z.xml');
    expect(p.message).toMatch(/ratio \d+:1/);
  });

  it('too many entries', async () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 30; i++) files[`f${i}.txt`] = strToU8('x');
    const r = await importFile({ name: 'many.zip', bytes: zipSync(files), limits: { zipEntries: 20 } });
    expect(r.refused).toBe(true);
    expect(r.problems[0]!.code).toBe('zip_too_many_entries');
  });

  it('an XML bomb (billion laughs) is refused at its DOCTYPE, with the line', async () => {
    const lol = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n${Array.from({ length: 9 }, (_v, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('\n')}\n]>\n<quiz>&lol9;</quiz>`;
    const p = await refused('bomb.xml', strToU8(lol), 'xml_doctype');
    expect(p.where.line).toBe(2);
  });

  it('an external entity is refused (nothing is read from the disk)', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE q [<!ENTITY x SYSTEM "file:///etc/passwd">]><assessmentItem>&x;</assessmentItem>`;
    await refused('xxe.xml', strToU8(xxe), 'xml_doctype');
    const inZip = zipSync({ 'imsmanifest.xml': strToU8(MANIFEST('i.xml')), 'i.xml': strToU8(xxe) });
    const p = await refused('xxe.zip', inZip, 'xml_doctype');
    expect(p.where.file).toBe('i.xml');
  });

  it.each(['questions.gift', 'questions.txt', 'quiz.xml', 'package.zip', 'item.xml', 'problems.fps'])(
    'binary garbage named %s',
    async (name) => {
      const garbage = new Uint8Array(4096);
      let seed = 7;
      for (let i = 0; i < garbage.length; i++) garbage[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
      const r = await importFile({ name, bytes: garbage });
      expect(r.refused).toBe(true);
      expect(r.questions).toEqual([]);
      expect(['not_text', 'zip_invalid', 'unknown_format']).toContain(r.problems[0]!.code);
    },
  );

  it('a file over the size limit is refused before it is read', async () => {
    const r = await importFile({
      name: 'big.gift',
      bytes: new Uint8Array(2048).fill(0x61),
      limits: { fileBytes: 1024 },
    });
    expect(r.refused).toBe(true);
    expect(r.problems.map((p) => [p.code, p.params.bytes, p.where.file])).toEqual([
      ['file_too_large', 2048, 'big.gift'],
    ]);
  });
});
