/** Programming questions to FreeProblemSet XML. */
import { htmlToText } from '../../richText.js';
import { languageName } from '../../languages.js';
import type { Draft, Problem } from '../../types.js';
import { cdata } from '../../xml.js';
import { notExported } from '../kinds.js';

const el = (name: string, text: string, attrs = '') => `<${name}${attrs}>${cdata(text)}</${name}>`;

/** Writes programming drafts as FPS 1.2; other kinds, and custom checkers, are left out with a warning each. */
export function exportFps(drafts: Draft[]): { text: string; problems: Problem[] } {
  const problems: Problem[] = [];
  const items: string[] = [];
  drafts.forEach((d, i) => {
    const q = d.question;
    const skip = (detail: string) => problems.push(notExported(i, q.kind, 'FPS', detail));
    if (q.kind !== 'programming') return skip('FPS carries programming problems only');
    if (q.key.checker !== 'default') return skip('FPS has no checker but a special judge program of its own protocol');
    const title = d.title ?? (htmlToText(q.content.stem).slice(0, 60) || `Problem ${i + 1}`);
    const parts = [
      el('title', title),
      el('time_limit', String(q.content.time_limit_ms / 1000), ' unit="s"'),
      el('memory_limit', String(q.content.memory_limit_mb), ' unit="mb"'),
      el('description', q.content.stem),
      el('input', ''),
      el('output', ''),
      ...q.content.samples.flatMap((s) => [el('sample_input', s.input), el('sample_output', s.output)]),
      ...q.key.cases.flatMap((c) => [el('test_input', c.input), el('test_output', c.output)]),
      el('hint', ''),
      el('source', d.tags.join(',')),
      ...(q.key.reference
        ? [el('solution', q.key.reference.source, ` language="${languageName(q.key.reference.language)}"`)]
        : []),
    ];
    items.push(`<item>\n${parts.join('\n')}\n</item>`);
  });
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<fps version="1.2" url="https://github.com/zhblue/freeproblemset/">\n<generator name="Examhall" url=""/>\n${items.join('\n')}\n</fps>\n`;
  return { text, problems };
}
