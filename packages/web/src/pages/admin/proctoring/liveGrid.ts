import {
  api,
  ProctorEvent,
  type GridFilter,
  type GridSort,
  type IntegrityRecord,
  type ProctorGridData,
  type ProctorTile,
} from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { request, urlFor } from '../../../api/client.js';

/** Longest wait before opening a stream again that the server closed or refused. */
const MAX_RECONNECT_MS = 30_000;

/** A risk event as it arrived on the live stream, or a flag still waiting when the page opened. */
export interface LiveRisk {
  attempt_id: number;
  record: IntegrityRecord;
  /** The candidate's name when the server sent it (flags from before the page opened). */
  name?: string;
}

/** Which page of the grid is shown. */
export interface GridView {
  filter: GridFilter;
  sort: GridSort;
  page: number;
  pageSize: number;
}

/**
 * How long tile changes may gather before the page is read again (a tile may now match another filter, and the
 * counts move): tiles on the page change in place at once, so this only has to be soon, not instant, and a big
 * exam's steady stream of pictures costs one page read per proctor every few seconds rather than one per picture.
 */
const RELOAD_AFTER_MS = 10_000;
/** The most risk events the feed keeps. */
const FEED_SIZE = 50;

/** The live grid of an exam: tiles, the server's clock and the latest risk events. */
export interface LiveGrid {
  /** The page's tiles, in the server's order. */
  tiles: ProctorTile[];
  /** The exam's name, once loaded. */
  examName: string | null;
  /** Tiles matching the filter, and how many each filter matches. */
  total: number;
  counts: ProctorGridData['counts'] | null;
  /** Server time minus this browser's time (ms), so remaining times tick on the server's clock. */
  offset: number;
  /** True while the stream is open. */
  connected: boolean;
  /** Loading the grid failed, with the message. */
  error: string | null;
  /** Newest first. */
  risks: LiveRisk[];
  /** True while the store refuses pictures and recordings for want of disk (as of the last load of the page). */
  storageFull: boolean;
  /** True when the exam keeps the phone check (tiles show the phone, the grid filters on it). */
  phoneCheck: boolean;
}

/** Newest first without repeats: a flag from the first load and its live event are one line. */
function mergeRisks(live: LiveRisk[], pending: LiveRisk[]): LiveRisk[] {
  const seen = new Set<number>();
  return [...live, ...pending]
    .filter((r) => (seen.has(r.record.id) ? false : (seen.add(r.record.id), true)))
    .sort((a, b) => b.record.id - a.record.id)
    .slice(0, FEED_SIZE);
}

/** The query key of an attempt's timeline, refreshed when the stream says it changed. */
export const attemptKey = (attemptId: number) => ['admin', 'proctor', 'attempt', attemptId] as const;

/**
 * Follows /admin/proctor/stream (server-sent events; the staff cookie goes with it) for one page of the grid.
 * On every (re)connect and every change of page, filter or order the page is loaded again, so nothing that
 * changed meanwhile is missed; after that a tile event replaces its tile in place, and tile changes reload the
 * page a few seconds later, since a tile may have come to match the filter or left it.
 */
export function useLiveGrid(examId: number, view: GridView): LiveGrid {
  const queryClient = useQueryClient();
  const [grid, setGrid] = useState<ProctorGridData | null>(null);
  const [tiles, setTiles] = useState<Map<number, ProctorTile>>(new Map());
  const [offset, setOffset] = useState(0);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<LiveRisk[]>([]);
  const latestLoad = useRef(0);
  const { filter, sort, page, pageSize } = view;
  // The stream outlives a change of page or filter: only the page is read again, the connection stays.
  const viewRef = useRef(view);
  viewRef.current = view;
  const reloadRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reload: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const load = async () => {
      const ticket = ++latestLoad.current;
      const v = viewRef.current;
      try {
        const data = await request(api.proctorGrid, {
          query: { exam_id: examId, filter: v.filter, sort: v.sort, page: v.page, page_size: v.pageSize },
        });
        if (stopped || ticket !== latestLoad.current) return;
        setOffset(data.server_time - Date.now());
        setGrid(data);
        setTiles(new Map(data.tiles.map((t) => [t.attempt_id, t])));
        setError(null);
      } catch (err) {
        if (!stopped) setError(err instanceof Error ? err.message : String(err));
      }
    };
    reloadRef.current = () => void load();
    const reloadSoon = () => {
      reload ??= setTimeout(() => {
        reload = undefined;
        void load();
      }, RELOAD_AFTER_MS);
    };

    const onMessage = (e: MessageEvent<string>) => {
      let json: unknown;
      try {
        json = JSON.parse(e.data);
      } catch {
        return;
      }
      const parsed = ProctorEvent.safeParse(json);
      if (!parsed.success) return;
      const ev = parsed.data;
      if (ev.type === 'hello') {
        setOffset(ev.server_time - Date.now());
        void load();
      } else if (ev.type === 'tile') {
        // Only tiles on this page are replaced; the others are the reload's to place.
        setTiles((prev) => (prev.has(ev.tile.attempt_id) ? new Map(prev).set(ev.tile.attempt_id, ev.tile) : prev));
        reloadSoon();
        void queryClient.invalidateQueries({ queryKey: attemptKey(ev.tile.attempt_id) });
      } else {
        setLive((prev) => [{ attempt_id: ev.attempt_id, record: ev.record }, ...prev].slice(0, FEED_SIZE));
        void queryClient.invalidateQueries({ queryKey: attemptKey(ev.attempt_id) });
      }
    };

    const connect = () => {
      if (stopped) return;
      source = new EventSource(urlFor(api.proctorStream, { exam_id: examId }, null), { withCredentials: true });
      source.onopen = () => {
        failures = 0;
        setConnected(true);
      };
      source.onmessage = onMessage;
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState !== EventSource.CLOSED) return;
        source = null;
        failures += 1;
        timer = setTimeout(connect, Math.min(MAX_RECONNECT_MS, 1_000 * 2 ** (failures - 1)));
      };
    };
    connect();
    return () => {
      stopped = true;
      reloadRef.current = () => undefined;
      clearTimeout(timer);
      clearTimeout(reload);
      source?.close();
    };
  }, [examId, queryClient]);

  // The first page, and every other page, filter or order the proctor picks.
  useEffect(() => reloadRef.current(), [examId, filter, sort, page, pageSize]);

  // A new exam starts with an empty feed; a new page or filter keeps what arrived.
  useEffect(() => setLive([]), [examId]);

  const order = grid?.tiles.map((t) => t.attempt_id) ?? [];
  return {
    tiles: order.map((id) => tiles.get(id)).filter((t) => t !== undefined),
    examName: grid?.exam_name ?? null,
    total: grid?.total ?? 0,
    counts: grid?.counts ?? null,
    offset,
    connected,
    error,
    risks: mergeRisks(live, grid?.pending ?? []),
    storageFull: grid?.storage_full ?? false,
    phoneCheck: grid?.phone_check ?? false,
  };
}

/** The server's clock, ticking once a second. */
export function useServerNow(offset: number): number {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    const timer = setInterval(() => setNow(Date.now() + offset), 1_000);
    return () => clearInterval(timer);
  }, [offset]);
  return now;
}

/** 'h:mm:ss' or 'mm:ss' of what is left until `end`. */
export function remaining(end: number, now: number): string {
  const s = Math.max(0, Math.floor((end - now) / 1000));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}
