/**
 * Reads the production build (npm run build, which `npm test` runs before these journeys): what the exam page loads
 * before an editor, that it carries none of the console's code, what the service worker keeps offline, and the
 * compressed copies the server sends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bundledSources,
  dynamicImportsOf,
  EDITOR_SRCS,
  entryKey,
  EXAM_PAGE_SRC,
  examPageWeight,
  readManifest,
  staticClosure,
} from '../packages/web/build/pageWeight.js';
import { COMPRESSIBLE, MIN_COMPRESS_BYTES } from '../packages/web/build/precompress.js';

const dist = fileURLToPath(new URL('../packages/web/dist/', import.meta.url));

/**
 * The exam page's JavaScript before an editor, gzipped: the goal of 200 KB. The page is built with the small kit in
 * src/ui/ and carries no Ant Design, its router is React Router's routes and hooks on the browser's history
 * (shell/appRouter.tsx), the question editors' texts come with the console's, the storage signer with the first
 * upload, and its own modules are one chunk (build/pageChunks.ts). What is left is React DOM, Zod with the contract's
 * schemas, TanStack Query and the app's own code.
 */
const EXAM_PAGE_BUDGET_GZIP = 200_000;

/** Ant Design and the packages that come only with it: none of them may reach the exam page. */
const ANTD_FAMILY = /node_modules\/(antd|@rc-component\/[^/]+|@ant-design\/[^/]+|dayjs)\//;

/** Source modules that belong to the staff console only. */
const CONSOLE_ONLY = [/\/src\/pages\/admin\//, /\/src\/questions\/edit\//, /\/src\/i18n\/console\./];

/** The offline list the build wrote into sw.js. */
function offlineList(): string[] {
  const sw = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8');
  const match = /const ASSETS = (\[[^\]]*\]);/.exec(sw);
  if (!match?.[1]) throw new Error('sw.js has no ASSETS list');
  return JSON.parse(match[1]) as string[];
}

describe('the built web app', () => {
  it('is built (run npm run build first)', () => {
    expect(fs.existsSync(path.join(dist, '.vite', 'manifest.json'))).toBe(true);
  });

  it(`loads at most ${EXAM_PAGE_BUDGET_GZIP / 1000} KB gzipped of JavaScript on the exam page before an editor`, () => {
    const weight = examPageWeight(dist);
    expect(weight.files.length).toBeGreaterThan(1);
    expect(weight.gzipBytes).toBeLessThanOrEqual(EXAM_PAGE_BUDGET_GZIP);
  });

  it("puts the exam page's own modules in one chunk that no other page loads, and the shell's in one", () => {
    const manifest = readManifest(dist);
    const page = staticClosure(manifest, [entryKey(manifest), EXAM_PAGE_SRC]);
    const own = page.filter((k) => /^_exam-page-/.test(k));
    expect(own, 'one chunk of the exam page').toHaveLength(1);
    expect(bundledSources(dist, [manifest[own[0]!]!.file]).some((s) => s.endsWith('/src/exam/outbox.ts'))).toBe(true);
    const others = Object.keys(manifest).filter(
      (k) => (k.startsWith('src/pages/') || k.startsWith('src/shell/')) && k !== EXAM_PAGE_SRC,
    );
    expect(others.length).toBeGreaterThan(10);
    for (const key of others) expect(staticClosure(manifest, [key]), key).not.toContain(own[0]);
    const shell = staticClosure(manifest, [entryKey(manifest)]).filter((k) => /^_shell-/.test(k));
    expect(shell, 'one chunk of the shell').toHaveLength(1);
    // What is left in the page are small chunks it shares with other pages: fewer than the 45 files it was.
    expect(examPageWeight(dist).files.length).toBeLessThan(35);
  });

  it('loads the English texts only when English is chosen, and keeps them for offline use', () => {
    const manifest = readManifest(dist);
    const page = staticClosure(manifest, [entryKey(manifest), EXAM_PAGE_SRC]);
    const sources = bundledSources(
      dist,
      page.map((k) => manifest[k]!.file),
    );
    expect(sources.some((s) => s.endsWith('/src/i18n/zh.ts'))).toBe(true);
    expect(sources.filter((s) => /\/src\/i18n\/(en|questions\.en)\.ts$/.test(s))).toEqual([]);
    const english = Object.keys(manifest).find((k) => k.endsWith('src/i18n/en.ts'));
    expect(english, 'the English texts are a chunk of their own').toBeDefined();
    expect(offlineList()).toContain(manifest[english!]!.file);
  });

  it('loads the code and rich-text editors only on demand, not with the exam page', () => {
    const manifest = readManifest(dist);
    const page = staticClosure(manifest, [entryKey(manifest), EXAM_PAGE_SRC]);
    for (const editor of EDITOR_SRCS) {
      expect(manifest[editor], editor).toBeDefined();
      expect(page, editor).not.toContain(editor);
    }
    // What the exam page may load later is the editors' side and the other candidate pages, never the console's.
    const later = dynamicImportsOf(manifest, page);
    expect(later.filter((k) => EDITOR_SRCS.includes(k) || /CodeAnswer|QaAnswer/.test(k)).length).toBeGreaterThan(0);
  });

  it('carries no Ant Design code on the exam page (antd, @rc-component, @ant-design, dayjs)', () => {
    const weight = examPageWeight(dist);
    const sources = bundledSources(dist, weight.files);
    expect(sources.some((s) => s.endsWith('/src/ui/Button.tsx'))).toBe(true);
    expect(sources.filter((s) => ANTD_FAMILY.test(s))).toEqual([]);
    // The other pages get antd's theme, language and App from a chunk of their own, loaded with their routes.
    expect(Object.keys(readManifest(dist))).toContain('src/shell/AntdScope.tsx');
    expect(weight.keys).not.toContain('src/shell/AntdScope.tsx');
  });

  it("carries none of the console's code on the exam page", () => {
    const weight = examPageWeight(dist);
    const sources = bundledSources(dist, weight.files);
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.some((s) => s.endsWith('src/pages/exam/ExamPage.tsx'))).toBe(true);
    const consoleCode = sources.filter((s) => CONSOLE_ONLY.some((re) => re.test(s)));
    expect(consoleCode).toEqual([]);
  });

  it("keeps the candidate's exam offline (its page, the editors) and not the console", () => {
    const manifest = readManifest(dist);
    const kept = new Set(offlineList());
    expect(kept.has(manifest[entryKey(manifest)]!.file)).toBe(true);
    expect(kept.has(manifest[EXAM_PAGE_SRC]!.file)).toBe(true);
    for (const editor of EDITOR_SRCS) expect(kept.has(manifest[editor]!.file), editor).toBe(true);
    const consolePages = Object.keys(manifest).filter((k) => k.startsWith('src/pages/admin/'));
    expect(consolePages.length).toBeGreaterThan(5);
    for (const key of consolePages) expect(kept.has(manifest[key]!.file), key).toBe(false);
    const built = fs.readdirSync(path.join(dist, 'assets')).filter((f) => !/\.(map|br|gz)$/.test(f));
    expect(kept.size).toBeLessThan(built.length);
  });

  it('has brotli and gzip copies beside every compressible file', () => {
    const files = [
      'index.html',
      'sw.js',
      ...fs.readdirSync(path.join(dist, 'assets')).map((f) => `assets/${f}`),
    ].filter((f) => COMPRESSIBLE.test(f) && fs.statSync(path.join(dist, f)).size >= MIN_COMPRESS_BYTES);
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      expect(fs.existsSync(path.join(dist, `${f}.br`)), `${f}.br`).toBe(true);
      expect(fs.existsSync(path.join(dist, `${f}.gz`)), `${f}.gz`).toBe(true);
    }
  });
  it("loads the face library only on demand from the exam page's monitor, and does not keep it offline", () => {
    const manifest = readManifest(dist);
    const human = Object.keys(manifest).find((k) => k.includes('@vladmandic/human'));
    const monitor = 'src/proctor/faceMonitor.ts';
    expect(human).toBeDefined();
    const page = staticClosure(manifest, [entryKey(manifest), EXAM_PAGE_SRC]);
    expect(page).not.toContain(human);
    expect(page).not.toContain(monitor);
    expect(manifest[monitor]!.dynamicImports).toContain(human);
    expect(dynamicImportsOf(manifest, page)).toContain(monitor);
    const kept = new Set(offlineList());
    expect(kept.has(manifest[human!]!.file)).toBe(false);
    expect(kept.has(manifest[monitor]!.file)).toBe(false);
  });

  it('loads the charting library only from the results pages, and only when they draw', () => {
    const manifest = readManifest(dist);
    const chartKeys = Object.keys(manifest).filter((k) =>
      bundledSources(dist, [manifest[k]!.file]).some((src) => /node_modules\/(echarts|zrender)\//.test(src)),
    );
    expect(chartKeys.length).toBeGreaterThan(0);
    // No page reaches it statically (the results page included): every page module's closure is free of it.
    const pages = Object.keys(manifest).filter(
      (k) => (k.startsWith('src/pages/') || manifest[k]!.isEntry) && !chartKeys.includes(k),
    );
    expect(pages.length).toBeGreaterThan(10);
    for (const key of pages) {
      const closure = staticClosure(manifest, [key]);
      for (const chart of chartKeys) expect(closure, `${key} loads ${chart}`).not.toContain(chart);
    }
    // It is imported on demand, and only by the results pages' modules.
    const importers = Object.keys(manifest).filter((k) =>
      (manifest[k]!.dynamicImports ?? []).some((d) => staticClosure(manifest, [d]).some((c) => chartKeys.includes(c))),
    );
    expect(importers.length).toBeGreaterThan(0);
    for (const key of importers) expect(key).toMatch(/^src\/pages\/admin\/results\//);
  });
});
