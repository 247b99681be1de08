/**
 * The exam editor's state: the draft being edited, its revision, whether it has unsaved changes, its
 * problems as the author types, and saving and publishing with the revision (a stale one is a conflict the
 * page explains).
 */
import { api, type EditorExamDetail, type ExamDefinition, type PublishData } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { isApiError, request } from '../../../api/client.js';
import { draftProblems } from './draft.js';
import { examKey, useInvalidateExams } from './queries.js';

/** Where the editor's copy stands against the server's. */
export interface DraftEditor {
  draft: ExamDefinition;
  revision: number;
  /** Grows when the draft is replaced from the server: editors that own their text remount on it. */
  generation: number;
  dirty: boolean;
  problems: ReturnType<typeof draftProblems>;
  /** Applies a change to the draft. */
  update: (change: (draft: ExamDefinition) => ExamDefinition) => void;
  /** Saves the draft; answers the saved detail. */
  save: () => Promise<EditorExamDetail>;
  saving: boolean;
  /** The last save's failure, or null. */
  saveError: unknown;
  /** True when the last save was refused because someone else saved first. */
  conflict: boolean;
  /** Saves when needed, then publishes. */
  publish: () => Promise<PublishData>;
  publishing: boolean;
  publishError: unknown;
  /** Replaces the editor's copy with the server's (after a conflict, or to discard changes). */
  reset: (detail: EditorExamDetail) => void;
  /** Takes the server's newer revision but keeps the editor's draft, so the next save overwrites theirs. */
  adoptRevision: (revision: number) => void;
}

/** The editor state of one exam, started from its loaded detail. */
export function useDraftEditor(detail: EditorExamDetail): DraftEditor {
  const invalidate = useInvalidateExams();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ExamDefinition>(detail.draft);
  const [revision, setRevision] = useState(detail.revision);
  const [dirty, setDirty] = useState(false);
  const [generation, setGeneration] = useState(0);
  const problems = useMemo(() => draftProblems(draft), [draft]);

  const update = useCallback((change: (d: ExamDefinition) => ExamDefinition) => {
    setDraft((d) => change(d));
    setDirty(true);
  }, []);

  const saveMutation = useMutation({
    mutationFn: (body: { draft: ExamDefinition; revision: number }) =>
      request(api.examEditorSaveDraft, { body: { exam_id: detail.id, revision: body.revision, draft: body.draft } }),
    onSuccess: (saved, sent) => {
      setRevision(saved.revision);
      // Changes typed while the save was on its way stay unsaved.
      setDirty((d) => d && draft !== sent.draft);
      invalidate(saved);
    },
  });
  const save = useCallback(() => saveMutation.mutateAsync({ draft, revision }), [saveMutation, draft, revision]);

  const publishMutation = useMutation({
    mutationFn: async () => {
      let rev = revision;
      if (dirty) rev = (await saveMutation.mutateAsync({ draft, revision })).revision;
      return request(api.examEditorPublish, { body: { exam_id: detail.id, revision: rev } });
    },
    onSuccess: () => {
      invalidate();
      // The versions, the published version and "draft changed" come from the server.
      void queryClient.invalidateQueries({ queryKey: examKey(detail.id) });
    },
  });

  const reset = useCallback(
    (fresh: EditorExamDetail) => {
      setDraft(fresh.draft);
      setRevision(fresh.revision);
      setDirty(false);
      setGeneration((g) => g + 1);
      saveMutation.reset();
    },
    [saveMutation],
  );

  const adoptRevision = useCallback(
    (rev: number) => {
      setRevision(rev);
      saveMutation.reset();
    },
    [saveMutation],
  );

  const conflict = isApiError(saveMutation.error) && saveMutation.error.code === 'revision_stale';
  return {
    draft,
    revision,
    generation,
    dirty,
    problems,
    update,
    save,
    saving: saveMutation.isPending,
    saveError: saveMutation.error,
    conflict,
    publish: () => publishMutation.mutateAsync(),
    publishing: publishMutation.isPending,
    publishError: publishMutation.error,
    reset,
    adoptRevision,
  };
}
