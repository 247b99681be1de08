/** The exam bench's chart: one self-contained HTML page with inline SVG (no script, no outside file). */
import type { ExamBenchSummary } from './examSummary.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Latency percentiles per call as bars on a log scale. */
function latencyBars(s: ExamBenchSummary): string {
  const calls = [...s.calls].sort((a, b) => b.p99_ms - a.p99_ms);
  const row = 22;
  const left = 290;
  const width = 560;
  const max = Math.max(1, ...calls.map((c) => c.p99_ms));
  const x = (ms: number) => (Math.log10(1 + ms) / Math.log10(1 + max)) * width;
  const bars = calls
    .map((c, i) => {
      const y = 30 + i * row;
      return (
        `<text x="${left - 8}" y="${y + 14}" text-anchor="end">${esc(c.call)}</text>` +
        `<rect x="${left}" y="${y + 2}" width="${x(c.p99_ms)}" height="16" fill="#f4b183"><title>p99 ${c.p99_ms} ms</title></rect>` +
        `<rect x="${left}" y="${y + 2}" width="${x(c.p95_ms)}" height="16" fill="#f8cbad"><title>p95 ${c.p95_ms} ms</title></rect>` +
        `<rect x="${left}" y="${y + 2}" width="${x(c.p50_ms)}" height="16" fill="#5b9bd5"><title>p50 ${c.p50_ms} ms</title></rect>` +
        `<text x="${left + x(c.p99_ms) + 6}" y="${y + 14}">${c.p50_ms} / ${c.p95_ms} / ${c.p99_ms} ms${c.errors ? `, ${c.errors} errors` : ''}</text>`
      );
    })
    .join('');
  const h = 40 + calls.length * row;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 220}" height="${h}" font-family="sans-serif" font-size="12">` +
    `<text x="${left}" y="16">p50 (blue) / p95 / p99 latency per call, ms, log scale</text>${bars}</svg>`
  );
}

/** Requests answered per second over the run. */
function rateLine(perSecond: readonly number[]): string {
  const w = 850;
  const h = 220;
  const pad = 40;
  const max = Math.max(1, ...perSecond);
  const pts = perSecond
    .map(
      (v, i) =>
        `${pad + (i / Math.max(1, perSecond.length - 1)) * (w - 2 * pad)},${h - pad - (v / max) * (h - 2 * pad)}`,
    )
    .join(' ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">` +
    `<text x="${pad}" y="16">requests answered per second (peak ${max}) over ${perSecond.length} s</text>` +
    `<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#999"/>` +
    `<polyline fill="none" stroke="#5b9bd5" stroke-width="1.5" points="${pts}"/></svg>`
  );
}

/** The page. */
export function examChart(s: ExamBenchSummary, perSecond: readonly number[]): string {
  const o = s.options;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench:exam ${s.candidates} candidates</title></head>
<body style="font-family:sans-serif">
<h1>bench:exam: ${s.candidates} candidates (${esc(o.dialect)})</h1>
<p>Logins over ${o.loginSpreadS} s, start within ${o.startSpreadS} s, exam ${o.examS} s. Errors: ${s.errors}.
First question after the opening: p99 ${s.first_question_s.p99} s, max ${s.first_question_s.max} s (${s.first_question_s.seen} seen).
Server CPU ${s.server.cpu_s ?? 'n/a'} s over ${s.seconds} s, peak RSS ${s.server.peak_rss_mb} MB.</p>
${latencyBars(s)}
${rateLine(perSecond)}
</body></html>
`;
}
