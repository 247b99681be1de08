import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route, uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The question bank: folders, questions, tags, uploads, reference checks, and the bank's pictures. */
export function bankRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.bankFolders, async ({ staff }) => s.bankFolders.folders(staff));
  route(app, s, api.bankFolderCreate, async ({ staff, body }) => s.bankFolders.createFolder(staff, body));
  route(app, s, api.bankFolderUpdate, async ({ staff, body }) => s.bankFolders.updateFolder(staff, body));
  route(app, s, api.bankFolderDelete, async ({ staff, body }) => {
    await s.bankFolders.deleteFolder(staff, body.folder_id);
    return {};
  });

  route(app, s, api.bankQuestions, async ({ staff, query }) => s.bankQuestions.list(staff, query));
  route(app, s, api.bankQuestion, async ({ staff, query }) => s.bankQuestions.get(staff, query.question_id));
  route(app, s, api.bankQuestionCreate, async ({ staff, body }) => s.bankQuestions.create(staff, body));
  route(app, s, api.bankQuestionUpdate, async ({ staff, body }) => s.bankQuestions.update(staff, body));
  route(app, s, api.bankBulkMove, async ({ staff, body }) =>
    s.bankBulk.bulkMove(staff, body.question_ids, body.folder_id),
  );
  route(app, s, api.bankBulkTag, async ({ staff, body }) => s.bankBulk.bulkTag(staff, body.question_ids, body.tags));
  route(app, s, api.bankBulkUntag, async ({ staff, body }) =>
    s.bankBulk.bulkUntag(staff, body.question_ids, body.tags),
  );
  route(app, s, api.bankBulkDelete, async ({ staff, body }) => s.bankBulk.bulkDelete(staff, body.question_ids));
  route(app, s, api.bankVerify, async ({ staff, body }) => s.bankReferenceCheck.verify(staff, body.question_id));
  route(app, s, api.bankTags, async ({ staff }) => s.bankQuestions.tags(staff));

  uploadRoute(app, s, api.bankUploadImage, async ({ staff, file }) => s.bankUploads.uploadImage(staff, file));
  uploadRoute(app, s, api.bankUploadAudio, async ({ staff, file }) => s.bankUploads.uploadAudio(staff, file));
  uploadRoute(app, s, api.bankUploadCases, async ({ staff, file }) => s.bankUploads.uploadCases(staff, file));

  // The bank's pictures, public by design: a stem's <img src> must load for candidates during an exam as in
  // the editor. The name is the SHA-256 of the bytes, so it cannot be guessed and never changes.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/media/images/:name',
      { schema: { params: z.object({ name: z.string().max(80) }), hide: true } },
      async (request, reply) => {
        const image = await s.bankUploads.image(request.params.name);
        return reply
          .type(image.type)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-length', image.size)
          .send(image.stream);
      },
    );
}
