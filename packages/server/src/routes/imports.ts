import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { downloadRoute, route, uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Question imports (the template, preview, commit) and exports (a folder, chosen questions, an exam) as files. */
export function importRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.bankFormats, async () => ({ list: await s.questionExports.formats() }));
  uploadRoute(app, s, api.bankImportPreview, async ({ staff, file, body }) => s.imports.preview(staff, file, body));
  uploadRoute(app, s, api.bankImport, async ({ staff, file, body }) => s.imports.commit(staff, file, body));
  downloadRoute(app, s, api.bankImportTemplate, async ({ query }) => s.questionExports.template(query.lang));
  downloadRoute(app, s, api.bankExportFolder, async ({ staff, query }) =>
    s.questionExports.exportFolder(staff, query.folder_id, query.format),
  );
  downloadRoute(app, s, api.bankExportQuestions, async ({ staff, query }) =>
    s.questionExports.exportQuestions(staff, query.question_ids, query.format),
  );
  downloadRoute(app, s, api.examExport, async ({ staff, query }) =>
    s.questionExports.exportExam(staff, query.exam_id, query.format),
  );
}
