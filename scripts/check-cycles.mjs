#!/usr/bin/env node
// Finds import cycles among a package's own modules (relative imports, type-only ones included: a cycle of types
// is still two modules that cannot be understood apart). Prints each cycle and fails when there is one.
// Usage: node scripts/check-cycles.mjs packages/server/src packages/web/src
import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every source file under `dir`, tests left out (a test may import what it tests from anywhere). */
function sources(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') out.push(...sources(p));
    } else if (/\.(ts|tsx)$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The file an import specifier names (`./a.js` is `./a.ts` or `./a.tsx`; a folder its index). */
function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
  for (const c of [`${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (fs.existsSync(c)) return c;
  return null;
}

/** The strongly connected parts of more than one module (Tarjan), each a cycle or a knot of them. */
function knots(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    // Iterative, so that a long chain of imports cannot overflow the stack.
    const work = [[v, 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1] += 1;
        const w = next[i];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === idx.get(node)) {
        const part = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          part.push(w);
        } while (w !== node);
        if (part.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(part);
      }
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** One shortest cycle through `start` inside `part`, to print (breadth-first). */
function cycleThrough(graph, part, start) {
  const inside = new Set(part);
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = prev.get(v); p !== null; p = prev.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

export function importCycles(dirs) {
  const graph = new Map();
  for (const dir of dirs)
    for (const file of sources(path.resolve(dir))) {
      const text = fs.readFileSync(file, 'utf8');
      const deps = new Set();
      for (const re of [IMPORT, DYNAMIC])
        for (const m of text.matchAll(re)) {
          const target = resolve(file, m[1]);
          if (target) deps.add(target);
        }
      graph.set(file, [...deps]);
    }
  return knots(graph).map((part) => {
    const sorted = [...part].sort();
    return { modules: sorted, example: cycleThrough(graph, part, sorted[0]) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.slice(2);
  const root = process.cwd();
  const found = importCycles(dirs);
  for (const k of found) {
    process.stderr.write(`import cycle among ${k.modules.length} modules:\n`);
    process.stderr.write(`  ${k.example.map((f) => path.relative(root, f)).join('\n  -> ')}\n`);
  }
  if (found.length) process.exit(1);
  process.stdout.write(`no import cycles in ${dirs.join(', ')}\n`);
}
