import { api, ProctorEvent, type IntegrityRecord, type ProctorTile } from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { request, urlFor } from '../../../api/client.js';

/** Longest wait before opening a stream again that the server closed or refused. */
const MAX_RECONNECT_MS = 30_000;

/** A risk event as it arrived on the live stream. */
export interface LiveRisk {
  attempt_id: number;
  record: IntegrityRecord;
}

/** The live grid of an exam: tiles, the server's clock and the latest risk events. */
export interface LiveGrid {
  tiles: ProctorTile[];
  /** Server time minus this browser's time (ms), so remaining times tick on the server's clock. */
  offset: number;
  /** True while the stream is open. */
  connected: boolean;
  /** Loading the grid failed, with the message. */
  error: string | null;
  /** Newest first. */
  risks: LiveRisk[];
}

/** The query key of an attempt's timeline, refreshed when the stream says it changed. */
export const attemptKey = (attemptId: number) => ['admin', 'proctor', 'attempt', attemptId] as const;

/**
 * Follows /admin/proctor/stream (server-sent events; the staff cookie goes with it). On every (re)connect
 * the grid is loaded again, so nothing that changed while the stream was down is missed; after that each
 * tile event replaces its tile in place.
 */
export function useLiveGrid(examId: number): LiveGrid {
  const queryClient = useQueryClient();
  const [tiles, setTiles] = useState<Map<number, ProctorTile>>(new Map());
  const [offset, setOffset] = useState(0);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [risks, setRisks] = useState<LiveRisk[]>([]);
  const latestLoad = useRef(0);

  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    setTiles(new Map());
    setRisks([]);

    const load = async () => {
      const ticket = ++latestLoad.current;
      try {
        const grid = await request(api.proctorGrid, { query: { exam_id: examId } });
        if (stopped || ticket !== latestLoad.current) return;
        setOffset(grid.server_time - Date.now());
        setTiles(new Map(grid.tiles.map((t) => [t.attempt_id, t])));
        setError(null);
      } catch (err) {
        if (!stopped) setError(err instanceof Error ? err.message : String(err));
      }
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
        setTiles((prev) => new Map(prev).set(ev.tile.attempt_id, ev.tile));
        void queryClient.invalidateQueries({ queryKey: attemptKey(ev.tile.attempt_id) });
      } else {
        setRisks((prev) => [{ attempt_id: ev.attempt_id, record: ev.record }, ...prev].slice(0, 50));
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
    void load();
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [examId, queryClient]);

  return {
    tiles: [...tiles.values()].sort((a, b) => a.attempt_id - b.attempt_id),
    offset,
    connected,
    error,
    risks,
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
