import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The exam editor: exams, drafts, versions, live changes, copy, archive, preview and invitations. */
export function examEditorRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.examEditorList, async ({ staff, query }) => s.examEditor.list(staff, query));
  route(app, s, api.examEditorDetail, async ({ staff, query }) => s.examEditor.detail(staff, query.exam_id));
  route(app, s, api.examEditorCreate, async ({ staff, body }) => s.examEditor.create(staff, body));
  route(app, s, api.examEditorSaveDraft, async ({ staff, body }) => s.examEditor.saveDraft(staff, body));
  route(app, s, api.examEditorPublish, async ({ staff, body }) => s.examEditor.publish(staff, body));
  route(app, s, api.examEditorLiveChange, async ({ staff, body }) => s.examEditor.liveChange(staff, body));
  route(app, s, api.examEditorCopy, async ({ staff, body }) => s.examEditor.copy(staff, body));
  route(app, s, api.examEditorArchive, async ({ staff, body }) => s.examEditor.archive(staff, body));
  route(app, s, api.examEditorPreview, async ({ staff, body }) => s.examPreview.preview(staff, body.exam_id));
  route(app, s, api.examEditorPreviewKeys, async ({ staff, query }) =>
    s.examPreview.previewKeys(staff, query.exam_id, query.version_id),
  );
  route(app, s, api.examEditorInvite, async ({ staff, body }) => s.examEditor.invite(staff, body));
  route(app, s, api.examEditorSebSettings, async ({ staff, query }) => s.seb.settingsFile(staff, query.exam_id));
  route(app, s, api.examEditorVersions, async ({ staff, query }) => s.examEditor.versions(staff, query.exam_id));
}
