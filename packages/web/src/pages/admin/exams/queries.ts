/** The exam area's server data and the mutations that change it; each mutation refetches what it changes. */
import { api, type EditorExamDetail, type EditorExamListQuery } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { HOME_KEY } from '../home/HomePage.js';
import { useServerList } from '../shared/serverList.js';

/** Query key of one exam's detail. */
export const examKey = (id: number) => queryKey(api.examEditorDetail, { exam_id: id });
/** Query key of one exam's proctors and graders. */
export const examStaffKey = (id: number) => queryKey(api.examStaffList, { exam_id: id });

/** One page of exams. */
export function useExamList(query: EditorExamListQuery) {
  const me = useStaffMe();
  return useServerList(api.examEditorList, query, { enabled: can(me.data, 'exam.read') });
}

/** One exam: draft, revision, versions, what runs now. */
export function useExam(id: number) {
  const me = useStaffMe();
  return useQuery({
    queryKey: examKey(id),
    queryFn: ({ signal }) => request(api.examEditorDetail, { query: { exam_id: id }, signal }),
    enabled: can(me.data, 'exam.read') && id > 0,
    // The editor holds its own copy while the author types; a background refetch must not replace it.
    refetchOnWindowFocus: false,
  });
}

/** Refetches the lists and the console home (status, counts and windows change with any exam change). */
export function useInvalidateExams() {
  const queryClient = useQueryClient();
  return (detail?: EditorExamDetail) => {
    if (detail) queryClient.setQueryData(examKey(detail.id), detail);
    void queryClient.invalidateQueries({ queryKey: queryKey(api.examEditorList) });
    void queryClient.invalidateQueries({ queryKey: HOME_KEY });
  };
}

/** Creates an exam with a default draft. */
export function useCreateExam() {
  const invalidate = useInvalidateExams();
  return useMutation({
    mutationFn: (body: { name: string; team_id?: number | null }) => request(api.examEditorCreate, { body }),
    onSuccess: () => invalidate(),
  });
}

/** Copies an exam's draft into a new exam. */
export function useCopyExam() {
  const invalidate = useInvalidateExams();
  return useMutation({
    mutationFn: (body: { exam_id: number; name?: string }) => request(api.examEditorCopy, { body }),
    onSuccess: () => invalidate(),
  });
}

/** Archives an exam or brings it back. */
export function useArchiveExam() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateExams();
  return useMutation({
    mutationFn: (body: { exam_id: number; archived: boolean }) => request(api.examEditorArchive, { body }),
    onSuccess: (_data, body) => {
      invalidate();
      void queryClient.invalidateQueries({ queryKey: examKey(body.exam_id) });
    },
  });
}
