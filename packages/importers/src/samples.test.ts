import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportQuestions, importFile, type ImportResult } from './index.js';

// Third-party samples live outside the repository (../shared/import-samples beside the repo root).
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = process.env.IMPORT_SAMPLES_DIR ?? join(repoRoot, '..', 'shared', 'import-samples');
const present = existsSync(DIR);
if (!present)
  console.warn(
    `\n!!! IMPORT SAMPLES NOT FOUND at ${DIR}: the third-party sample tests are SKIPPED. Set IMPORT_SAMPLES_DIR to run them. !!!\n`,
  );

const load = (name: string): Promise<ImportResult> => importFile({ name, bytes: readFileSync(join(DIR, name)) });
const kinds = (r: ImportResult) => r.questions.map((q) => q.question.kind);
const warnings = (r: ImportResult) =>
  r.problems.filter((p) => p.severity !== 'info').map((p) => [p.code, p.where.line ?? p.where.element, p.severity]);

/** Zips a folder (the QTI 3 conformance package is stored unpacked). */
function zipFolder(dir: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p);
    }
  };
  walk(dir);
  return zipSync(files);
}

describe.skipIf(!present)('third-party samples (../shared/import-samples)', () => {
  it('questions.gift.txt: 7 of 9 questions; the matching question and the numeric range are reported where they stand', async () => {
    const r = await load('questions.gift.txt');
    expect(r.format).toBe('gift');
    expect(kinds(r)).toEqual(['qa', 'single', 'multiple', 'fill_blank', 'true_false', 'true_false', 'true_false']);
    expect(warnings(r)).toEqual([
      ['no_counterpart', 5, 'warning'],
      ['numeric_not_exact', 31, 'warning'],
    ]);
    const multi = r.questions[2]!;
    expect(multi.question.key).toEqual({ options: ['A', 'C'] });
    const short = r.questions[3]!.question;
    expect(short.key).toEqual({ blanks: [['Frog']] });
    expect(r.problems.some((p) => p.code === 'partial_credit_dropped' && p.params.answer === 'Cat')).toBe(true);
    const tf = r.questions[4]!;
    expect(tf.question.key).toEqual({ option: 'B' });
    expect(tf.explanation).toContain("Hitchiker's Guide");
  });

  it('questions_in_category.gift.txt: the category becomes a folder; matching reported, 3 questions', async () => {
    const r = await load('questions_in_category.gift.txt');
    expect(kinds(r)).toEqual(['single', 'fill_blank', 'true_false']);
    expect(r.questions.every((q) => q.folder.join('/') === 'Default for New Features')).toBe(true);
    expect(warnings(r)).toEqual([['no_counterpart', 5, 'warning']]);
    expect(r.questions[0]!.question.content.stem).toContain(
      'href="http://demo.moodle.net/file.php/5/media/bonjour.mp3"',
    );
  });

  it('examples.txt: 43 blocks, 36 questions; 3 matching and 4 numeric ranges reported by line', async () => {
    const r = await load('examples.txt');
    expect(r.questions).toHaveLength(36);
    expect(warnings(r)).toEqual([
      ['numeric_not_exact', 16, 'warning'],
      ['no_counterpart', 55, 'warning'],
      ['no_counterpart', 61, 'warning'],
      ['numeric_not_exact', 72, 'warning'],
      ['numeric_not_exact', 74, 'warning'],
      ['numeric_not_exact', 175, 'warning'],
      ['no_counterpart', 177, 'warning'],
    ]);
    const count = (k: string) => kinds(r).filter((x) => x === k).length;
    expect([count('single'), count('multiple'), count('gradient'), count('true_false'), count('fill_blank')]).toEqual([
      13, 2, 3, 5, 13,
    ]);
    const missingWord = r.questions.find((q) => q.question.content.stem.startsWith('Grant is ___ in'));
    expect(missingWord?.question.kind).toBe('single');
    const escapes = r.questions.find((q) => q.question.content.stem.includes('NOT a control character'))!;
    expect(escapes.question.kind).toBe('single');
    if (escapes.question.kind === 'single')
      expect(escapes.question.content.options.map((o) => o.content)).toEqual(['~', '=', '#', '{', '}', '\\']);
  });

  it('category_with_description.xml: one true/false in folder Alpha', async () => {
    const r = await load('category_with_description.xml');
    expect(r.format).toBe('moodle_xml');
    expect(kinds(r)).toEqual(['true_false']);
    expect(r.questions[0]!.folder).toEqual(['Alpha']);
    expect(r.questions[0]!.points).toBe(1);
    expect(warnings(r)).toEqual([]);
  });

  it('nested_categories_with_questions.xml: 4 true/false and 1 essay in nested folders', async () => {
    const r = await load('nested_categories_with_questions.xml');
    expect(kinds(r)).toEqual(['true_false', 'qa', 'true_false', 'true_false', 'true_false']);
    expect(r.questions.map((q) => q.folder.join('/'))).toEqual([
      'Iota',
      'Iota/Kappa',
      'Iota/Kappa',
      'Iota/Kappa/Lambda',
      'Iota/Mu',
    ]);
  });

  it('multianswer.xml: the cloze becomes a reading question (4 choices, 1 blank) with its 3 pictures extracted and linked', async () => {
    const r = await load('multianswer.xml');
    expect(kinds(r)).toEqual(['reading']);
    const q = r.questions[0]!;
    if (q.question.kind !== 'reading') throw new Error('not reading');
    expect(q.question.content.subs.map((s) => s.type)).toEqual([1, 1, 1, 1, 4]);
    expect(q.question.key.subs['5']).toEqual({ blanks: [['Paris']] });
    expect(r.files).toHaveLength(3);
    for (const f of r.files) expect([...f.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const text = q.question.content.passage + (q.explanation ?? '');
    expect(text).not.toContain('@@PLUGINFILE@@');
    expect(r.files.every((f) => text.includes(`import-file:${f.id}`))).toBe(true);
    expect(r.problems.filter((p) => p.code === 'cloze_converted')).toHaveLength(1);
    expect(warnings(r)).toEqual([]);
  });

  it('qti/*.xml: single, multiple (mapping with a negative value), text entry (partial credit noted), essay', async () => {
    const got = await Promise.all(
      ['choice.xml', 'choice_multiple.xml', 'text_entry.xml', 'extended_text.xml'].map((n) => load(`qti/${n}`)),
    );
    expect(got.map((r) => kinds(r))).toEqual([['single'], ['multiple'], ['fill_blank'], ['qa']]);
    expect(got[1]!.questions[0]!.question.key).toEqual({ options: ['A', 'D'] });
    expect(got[2]!.questions[0]!.question.key).toEqual({ blanks: [['York']] });
    expect(got[2]!.problems.map((p) => [p.code, p.params.answer])).toEqual([['partial_credit_dropped', 'york']]);
    // The pictures these items name are not in the samples: reported, link kept.
    expect(got[0]!.problems.map((p) => [p.code, p.where.element, p.where.line])).toEqual([['file_missing', 'img', 20]]);
    expect(got[3]!.problems.map((p) => [p.code, p.where.element])).toEqual([['file_missing', 'object']]);
  });

  it('qti/WebDeveloperTest1.zip: 9 items through the manifest (ISO-8859-1 test file), the inline choices as a reading question, the picture linked', async () => {
    const r = await load('qti/WebDeveloperTest1.zip');
    expect(r.refused).toBe(false);
    expect(kinds(r)).toEqual([
      'single',
      'single',
      'single',
      'single',
      'multiple',
      'single',
      'single',
      'reading',
      'multiple',
    ]);
    expect(r.questions.map((q) => q.where.file)).toEqual(Array.from({ length: 9 }, (_v, i) => `question${i + 1}.xml`));
    const inline = r.questions[7]!.question;
    if (inline.kind !== 'reading') throw new Error('not reading');
    expect(inline.content.subs.map((s) => s.options?.length ?? 0)).toEqual([2, 3]);
    expect(r.files.map((f) => [f.name, f.mime])).toEqual([['directory.jpg', 'image/jpeg']]);
    expect(r.questions[3]!.question.content.stem).toContain('src="import-file:f1"');
    expect(warnings(r)).toEqual([]);
  });

  it('qti/qti3-conformance-T4-T7: QTI 3.0 package: single and essay imported; the multiple and text entry items declare no right answer, reported by file', async () => {
    const r = await importFile({ name: 'qti3.zip', bytes: zipFolder(join(DIR, 'qti', 'qti3-conformance-T4-T7')) });
    expect(r.format).toBe('qti');
    expect(kinds(r)).toEqual(['single', 'qa']);
    expect(r.problems.map((p) => [p.code, p.where.file, p.severity])).toEqual([
      ['invalid_question', 'items/choice-multiple-cardinality.xml', 'error'],
      ['invalid_question', 'items/text-entry.xml', 'error'],
    ]);
    expect(r.problems[0]!.message).toContain('choose at least one right option');
  });

  it('explanations and feedback per option: kept, with no problem about them, and exported again', async () => {
    const gift = await load('questions.gift.txt');
    const choice = gift.questions[1]!;
    expect(choice.feedback).toEqual({ A: 'right; good!', B: "wrong, it's yellow", C: "wrong, it's yellow" });
    // {FALSE#wrong fb#right fb ####general fb}: the wrong option is true (A), the right one false (B).
    const tf = gift.questions[4]!;
    expect(tf.feedback).toEqual({ A: '42 is the Ultimate Answer.', B: 'You gave the right answer.' });
    expect(tf.explanation).toContain("Hitchiker's Guide");
    // A short answer's accepted answers are not options: their feedback is kept in the explanation.
    expect(gift.questions[3]!.explanation).toContain('<li>Cat: What is it with Moodlers and cats?</li>');
    const examples = await load('examples.txt');
    expect(examples.questions.filter((q) => q.feedback).length).toBe(6);
    const cloze = await load('multianswer.xml');
    expect(cloze.questions[0]!.feedback).toMatchObject({ '1.A': 'OK', '1.B': 'Wrong', '4.B': 'OK' });
    expect(cloze.questions[0]!.explanation).toContain('import-file:');
    const all = [gift, examples, cloze, await load('questions_in_category.gift.txt')];
    const about = /explanation|feedback/i;
    for (const r of all) expect(r.problems.filter((p) => about.test(p.code) || about.test(p.message))).toEqual([]);
    // Written again in the formats that carry them, they come back the same (those a format leaves out aside).
    const kept = (qs: { explanation?: string; feedback?: Record<string, string> }[]) =>
      qs.map((q) => [q.explanation, q.feedback]);
    for (const [format, drafts] of [
      ['gift', gift.questions],
      ['moodle_xml', examples.questions],
      ['qti', examples.questions],
      ['csv', examples.questions],
    ] as const) {
      const out = await exportQuestions(format, drafts);
      const noted = (code: string) => new Set(out.problems.filter((p) => p.code === code).map((p) => p.where.element));
      const [left, plain] = [noted('not_exported'), noted('markup_dropped')];
      const back = await importFile({ name: `again.${out.extension}`, bytes: out.bytes, format });
      const written = drafts.flatMap((d, i) => (left.has(`question[${i + 1}]`) ? [] : [{ d, i }]));
      expect(back.questions).toHaveLength(written.length);
      // QTI writes markup that is not well-formed XHTML as plain text (with a note): those are not compared.
      const same = written.flatMap(({ d, i }, n) => (plain.has(`question[${i + 1}]`) ? [] : [[d, back.questions[n]!]]));
      expect(same.length).toBeGreaterThan(0);
      expect(kept(same.map(([, b]) => b!))).toEqual(kept(same.map(([d]) => d!)));
    }
  });
});
