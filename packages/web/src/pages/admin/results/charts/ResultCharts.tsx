/** The results' charts, built on EChart: loaded lazily by the results page and the report drawer only. */
import type { ResultReportData, ResultStatsData } from '@examhall/contract';
import { useMemo } from 'react';
import { EChart } from './EChart.js';

type Dimension = ResultReportData['dimensions'][number];

/** How many candidates scored in each band of the score range. */
export function ScoreChart({
  stats,
  label,
  countLabel,
}: {
  stats: ResultStatsData;
  label: string;
  countLabel: string;
}) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 16, top: 24, bottom: 40 },
      xAxis: { type: 'category', data: stats.distribution.map((b) => `${b.from}-${b.to}`) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', name: countLabel, data: stats.distribution.map((b) => b.count) }],
    }),
    [stats, countLabel],
  );
  return <EChart option={option} label={label} />;
}

/** Each section's mean beside what it is worth. */
export function SectionChart({
  stats,
  names,
  label,
  meanLabel,
  maxLabel,
}: {
  stats: ResultStatsData;
  names: Record<string, string>;
  label: string;
  meanLabel: string;
  maxLabel: string;
}) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      // The legend below the axis, and the grid holding its labels: they never overlap.
      legend: { bottom: 0 },
      grid: { left: 8, right: 16, top: 16, bottom: 32, containLabel: true },
      xAxis: { type: 'category', data: stats.sections.map((s) => names[s.section] ?? s.section) },
      yAxis: { type: 'value' },
      series: [
        { type: 'bar', name: meanLabel, data: stats.sections.map((s) => s.mean) },
        { type: 'bar', name: maxLabel, data: stats.sections.map((s) => s.max) },
      ],
    }),
    [stats, names, meanLabel, maxLabel],
  );
  return <EChart option={option} label={label} />;
}

/** Mean seconds spent on each question. */
export function TimeChart({ stats, label }: { stats: ResultStatsData; label: string }) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 16, top: 24, bottom: 40 },
      xAxis: { type: 'category', data: stats.questions.map((q, i) => `Q${i + 1}`) },
      yAxis: { type: 'value' },
      series: [{ type: 'bar', name: label, data: stats.questions.map((q) => Math.round(q.mean_ms / 100) / 10) }],
    }),
    [stats, label],
  );
  return <EChart option={option} label={label} />;
}

/** An attempt's evaluation dimensions as a radar (three or more), else as bars. */
export function DimensionChart({
  dimensions,
  name,
  label,
}: {
  dimensions: readonly Dimension[];
  name: (id: string) => string;
  label: string;
}) {
  const option = useMemo(() => {
    if (dimensions.length >= 3) {
      return {
        tooltip: {},
        radar: { indicator: dimensions.map((d) => ({ name: name(d.dimension), max: d.max || 1 })) },
        series: [{ type: 'radar', data: [{ value: dimensions.map((d) => d.score), name: label }] }],
      };
    }
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 16, top: 24, bottom: 32 },
      xAxis: { type: 'category', data: dimensions.map((d) => name(d.dimension)) },
      yAxis: { type: 'value', max: Math.max(1, ...dimensions.map((d) => d.max)) },
      series: [{ type: 'bar', name: label, data: dimensions.map((d) => d.score) }],
    };
  }, [dimensions, name, label]);
  return <EChart option={option} label={label} height={240} />;
}
