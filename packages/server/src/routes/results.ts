import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { downloadRoute, route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Results: the ranking, one attempt's report, the figures for charts, dimensions and exports. */
export function resultRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.resultsRanking, async ({ staff, query }) => s.results.ranking(staff, query));
  route(app, s, api.resultsReport, async ({ staff, query }) => s.results.report(staff, query.attempt_id));
  route(app, s, api.resultsStats, async ({ staff, query }) => s.results.stats(staff, query));
  route(app, s, api.resultsDimensions, async ({ staff, query }) => s.resultDimensions.dimensions(staff, query.exam_id));
  route(app, s, api.resultsExport, async ({ staff, body }) => s.resultsExport.startExport(staff, body));
  downloadRoute(app, s, api.resultsExportFile, async ({ staff, query }) =>
    s.resultsExport.exportFile(staff, query.job_id),
  );
}
