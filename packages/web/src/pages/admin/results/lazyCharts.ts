/** The charts, each loaded with ECharts on first use: the chunk is fetched only by the pages that draw them. */
import { lazy } from 'react';

const charts = () => import('./charts/ResultCharts.js');

export const ScoreChart = lazy(async () => ({ default: (await charts()).ScoreChart }));
export const SectionChart = lazy(async () => ({ default: (await charts()).SectionChart }));
export const TimeChart = lazy(async () => ({ default: (await charts()).TimeChart }));
export const DimensionChart = lazy(async () => ({ default: (await charts()).DimensionChart }));
