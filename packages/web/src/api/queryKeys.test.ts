import { api } from '@examhall/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKey } from './queryKeys.js';

describe('query keys from the catalogue', () => {
  it('gives a call one key per query, and the call alone matches all of them', () => {
    expect(queryKey(api.monitorState, { exam_id: 3 })).toEqual(['GET', '/monitor/state', { exam_id: 3 }]);
    expect(queryKey(api.monitorState, { exam_id: 3 })).toEqual(queryKey(api.monitorState, { exam_id: 3 }));
    expect(queryKey(api.monitorState, { exam_id: 3 })).not.toEqual(queryKey(api.monitorState, { exam_id: 4 }));

    const client = new QueryClient();
    client.setQueryData(queryKey(api.monitorState, { exam_id: 3 }), 'a');
    client.setQueryData(queryKey(api.monitorState, { exam_id: 4 }), 'b');
    client.setQueryData(queryKey(api.miniQrcode, { exam_id: 3, anid: 1 }), 'c');
    expect(client.getQueryCache().findAll({ queryKey: queryKey(api.monitorState) })).toHaveLength(2);
  });
});
