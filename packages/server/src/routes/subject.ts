import { api, type AudioData } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { fail } from '../errors.js';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';
import { contentTypeOf } from '../storage/media.js';

/** How long a play link stays valid beyond the audio's length. */
const LINK_SLACK_MS = 30_000;

/** Questions, the answer card and listening audio. */
export function subjectRoutes(app: FastifyInstance, s: Services, config: Config): void {
  route(app, s, api.orderList, async ({ query, candidate }) => s.examQuestions.orderList(candidate, query.exam_id));
  route(app, s, api.showNew, async ({ query, candidate }) =>
    s.examQuestions.showNew(candidate, query.exam_id, query.subject_id),
  );
  route(app, s, api.showSection, async ({ query, candidate }) =>
    s.examQuestions.showSection(candidate, query.exam_id, query.section),
  );

  route(app, s, api.audioInfo, async ({ body, candidate }): Promise<AudioData> => {
    const { q, plays } = await s.examQuestions.audioInfo(candidate, body.exam_id, body.subject_id);
    return {
      play_limit: q.content.audio.play_limit,
      play_count: plays,
      url: null,
      duration_s: q.content.audio.duration_s,
    };
  });

  route(app, s, api.audioPlay, async ({ body, candidate }): Promise<AudioData> => {
    const { q, plays } = await s.examQuestions.audioPlay(candidate, body.exam_id, body.subject_id);
    const audio = q.content.audio;
    const token = await s.media.sign(q.key.audio.key, audio.duration_s * 1000 + LINK_SLACK_MS);
    return {
      play_limit: audio.play_limit,
      play_count: plays,
      url: `${config.apiPrefix}/media/audio?t=${encodeURIComponent(token)}`,
      duration_s: audio.duration_s,
    };
  });

  // The audio itself: only through a link that /subject/audio-play signed after counting the play.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/media/audio',
      { schema: { querystring: z.object({ t: z.string().min(1).max(2000) }), hide: true } },
      async (request, reply) => {
        const key = await s.media.verify(request.query.t);
        const found = await s.store.stream(key);
        if (!found) throw fail('not_found', 'the audio is missing');
        return (
          reply
            // The bank takes WAV, MP3, Ogg and M4A; the key's extension says which (the demo's is a WAV).
            .type(contentTypeOf(key))
            .header('cache-control', 'private, no-store')
            .header('content-length', found.size)
            .send(found.stream)
        );
      },
    );
}
