/**
 * npm run bench:results — how fast the results area computes what it shows, one section per measured thing.
 * Each section prints its lines and answers its figures; the last line is one JSON object of every section's
 * figures under the section's name. A new measurement is one more entry in SECTIONS.
 * BENCH_SECTIONS=similarity,rankings,items runs only the named sections.
 */
import { itemsSection } from './results/items.js';
import type { ResultsSection } from './results/section.js';
import { rankingsSection } from './results/rankings.js';
import { similaritySection } from './results/similarity.js';

const SECTIONS: ResultsSection[] = [similaritySection, rankingsSection, itemsSection];

const only = process.env.BENCH_SECTIONS?.split(',').map((s) => s.trim());
const figures: Record<string, Record<string, number | string>> = {};
for (const section of SECTIONS) {
  if (only && !only.includes(section.name)) continue;
  console.log(`== ${section.name}`);
  figures[section.name] = await section.run((line) => console.log(`  ${line}`));
}
console.log(JSON.stringify(figures));
