/**
 * The media streams the device checks opened. They live in a module-level store, not in a page,
 * so the exam page keeps using them after navigation without asking for permission again.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';

/** The candidate's streams; null where a step is closed, skipped or not done yet. */
export interface ProctorStreams {
  /** Camera (video only), 1280x720 when the device allows. */
  camera: MediaStream | null;
  /** Microphone (audio only). */
  microphone: MediaStream | null;
  /** The whole screen (display capture of a monitor). */
  screen: MediaStream | null;
}

let current: ProctorStreams = { camera: null, microphone: null, screen: null };
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** The current streams. */
export function getStreams(): ProctorStreams {
  return current;
}

/** Replaces one stream, stopping the one it replaces. */
export function setStream(kind: keyof ProctorStreams, stream: MediaStream | null): void {
  const old = current[kind];
  if (old === stream) return;
  if (old) stopTracks(old);
  current = { ...current, [kind]: stream };
  emit();
}

/** Stops every track of every stream (after the exam). */
export function stopStreams(): void {
  for (const s of Object.values(current) as (MediaStream | null)[]) if (s) stopTracks(s);
  current = { camera: null, microphone: null, screen: null };
  emit();
}

/** Calls `listener` whenever a stream is replaced; answers the unsubscribe function. */
export function subscribeStreams(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The streams as React state. */
export function useStreams(): ProctorStreams {
  return useSyncExternalStore(subscribeStreams, getStreams, getStreams);
}

/** True while the stream has a live track. */
export function isLive(stream: MediaStream | null): stream is MediaStream {
  return !!stream && stream.getTracks().some((t) => t.readyState === 'live');
}

function stopTracks(stream: MediaStream): void {
  for (const t of stream.getTracks()) t.stop();
}

/** Renders the caller again when a track of `stream` ends, so it can offer to open the device again. */
export function useRenderOnTrackEnd(stream: MediaStream | null): void {
  const [, setEnded] = useState(0);
  useEffect(() => {
    if (!stream) return;
    const onEnded = () => setEnded((n) => n + 1);
    for (const track of stream.getTracks()) track.addEventListener('ended', onEnded);
    return () => {
      for (const track of stream.getTracks()) track.removeEventListener('ended', onEnded);
    };
  }, [stream]);
}
