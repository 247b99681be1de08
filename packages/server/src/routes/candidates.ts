import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { downloadRoute, route, uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The candidate directory (list, one, add, edit, import with its template) and an exam's candidates by status. */
export function candidateRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.candidateList, async ({ staff, query }) => s.candidates.list(staff, query));
  route(app, s, api.candidateDetail, async ({ staff, query }) => s.candidates.detail(staff, query.candidate_id));
  route(app, s, api.candidateCreate, async ({ staff, body }) => s.candidates.create(staff, body));
  route(app, s, api.candidateUpdate, async ({ staff, body }) => s.candidates.update(staff, body));
  uploadRoute(app, s, api.candidateImportPreview, async ({ staff, file, body }) =>
    s.candidateImports.preview(staff, file, body.team_id),
  );
  uploadRoute(app, s, api.candidateImport, async ({ staff, file, body }) =>
    s.candidateImports.commit(staff, file, body),
  );
  downloadRoute(app, s, api.candidateImportTemplate, async ({ query }) => s.candidateImports.template(query.lang));
  route(app, s, api.examCandidates, async ({ staff, query }) => s.examCandidates.list(staff, query));
  downloadRoute(app, s, api.examCandidatesExport, async ({ staff, query }) => s.examCandidates.export(staff, query));
}
