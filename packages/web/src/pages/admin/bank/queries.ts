/** The question bank's server data and the mutations that change it; each mutation refetches what it changes. */
import {
  api,
  type BankBulkResult,
  type BankFolderCreateBody,
  type BankFolderUpdateBody,
  type BankQuestionQuery,
} from '@examhall/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useServerList } from '../shared/serverList.js';

/** The start of the bank's keys not made from one call's query: the pool sizes (several calls), the import formats. */
export const BANK_KEY = ['admin', 'bank'] as const;
/** Query key of the folder tree. */
const FOLDERS_KEY = queryKey(api.bankFolders);
/** Query key of one question in full. */
export const questionKey = (id: number) => queryKey(api.bankQuestion, { question_id: id });

/** The folder tree the caller may see. */
export function useFolders() {
  const me = useStaffMe();
  return useQuery({
    queryKey: FOLDERS_KEY,
    queryFn: ({ signal }) => request(api.bankFolders, { signal }),
    enabled: can(me.data, 'bank.read'),
  });
}

/** Tags with how many questions carry each. */
export function useTags() {
  const me = useStaffMe();
  return useQuery({
    queryKey: queryKey(api.bankTags),
    queryFn: ({ signal }) => request(api.bankTags, { signal }),
    enabled: can(me.data, 'bank.read'),
    staleTime: 30_000,
  });
}

/** One page of questions; the previous page stays on screen while the next loads. */
export function useQuestions(query: BankQuestionQuery, enabled = true) {
  const me = useStaffMe();
  return useServerList(api.bankQuestions, query, { enabled: enabled && can(me.data, 'bank.read') });
}

/** Refetches everything the bank shows (counts in folders and tags change with questions). */
export function invalidateBank(queryClient: QueryClient): void {
  for (const call of [api.bankFolders, api.bankTags, api.bankQuestions, api.bankQuestion])
    void queryClient.invalidateQueries({ queryKey: queryKey(call) });
  void queryClient.invalidateQueries({ queryKey: BANK_KEY });
}

/** Creates a folder. */
export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BankFolderCreateBody) => request(api.bankFolderCreate, { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: FOLDERS_KEY }),
  });
}

/** Renames or moves a folder. */
export function useUpdateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BankFolderUpdateBody) => request(api.bankFolderUpdate, { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: FOLDERS_KEY }),
  });
}

/** Deletes an empty folder. */
export function useDeleteFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folderId: number) => request(api.bankFolderDelete, { body: { folder_id: folderId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: FOLDERS_KEY }),
  });
}

/** A bulk action on questions: move, tag, untag or delete. */
export type BulkAction =
  | { kind: 'move'; ids: number[]; folderId: number | null }
  | { kind: 'tag' | 'untag'; ids: number[]; tags: string[] }
  | { kind: 'delete'; ids: number[] };

/** Runs a bulk action; its result names the questions kept and why. */
export function useBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: BulkAction): Promise<BankBulkResult> => {
      switch (action.kind) {
        case 'move':
          return request(api.bankBulkMove, { body: { question_ids: action.ids, folder_id: action.folderId } });
        case 'tag':
          return request(api.bankBulkTag, { body: { question_ids: action.ids, tags: action.tags } });
        case 'untag':
          return request(api.bankBulkUntag, { body: { question_ids: action.ids, tags: action.tags } });
        case 'delete':
          return request(api.bankBulkDelete, { body: { question_ids: action.ids } });
      }
    },
    onSuccess: () => invalidateBank(queryClient),
  });
}
