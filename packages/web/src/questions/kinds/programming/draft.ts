/** Drafts of programming questions: every language, the default limits and checker, no cases yet. */
import { CODE_LIMITS } from '@examhall/contract';
import type { KindDraft, ProgrammingContentDraft, ProgrammingKeyDraft } from '../../draftTypes.js';
import { DEFAULT_LANGUAGES, giveCode, takeCode } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    programming: { content: ProgrammingContentDraft; key: ProgrammingKeyDraft };
  }
}

export const draft = {
  kind: 'programming',
  empty: () => ({
    content: {
      stem: '',
      languages: [...DEFAULT_LANGUAGES],
      starter: {},
      samples: [],
      time_limit_ms: CODE_LIMITS.timeMs.default,
      memory_limit_mb: CODE_LIMITS.memoryMb.default,
    },
    key: { checker: 'default', cases: [] },
  }),
  give: (b) => ({ code: giveCode(b.content) }),
  take: (b, parts) => ({ ...b, content: takeCode(b.content, parts) }),
} satisfies KindDraft<'programming'>;
