import { monitorCalls } from '@examhall/contract';
import { useEffect, useState, type RefObject } from 'react';
import { errorText, request } from '../../api/client.js';
import { phoneCredentials } from '../../proctor/credentials.js';
import { grabStill } from '../../proctor/frames.js';
import { putObject } from '../../proctor/upload.js';

/** Sends a picture from `stream` every `interval` seconds while it is given; answers what was sent. */
export function usePhonePictures(stream: MediaStream | null, interval: number, offsetRef: RefObject<number>) {
  const [sent, setSent] = useState(0);
  const [lastSent, setLastSent] = useState<number | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  useEffect(() => {
    if (!stream) return;
    let cancelled = false;
    const send = async () => {
      const trigger_time = Date.now() + offsetRef.current;
      const client_id = crypto.randomUUID();
      try {
        const blob = await grabStill(stream, { mirror: false });
        const { key, sha256 } = await putObject(
          phoneCredentials(() => Date.now() + offsetRef.current),
          `phone/${trigger_time}-${client_id.slice(0, 8)}.jpg`,
          blob,
          'image/jpeg',
        );
        await request(monitorCalls.phonePicture, { body: { key, sha256, trigger_time, client_id } });
        if (cancelled) return;
        setSent((n) => n + 1);
        setLastSent(Date.now());
        setSendError(null);
      } catch (e) {
        console.warn('[phone] picture not sent:', errorText(e));
        if (!cancelled) setSendError(errorText(e));
      }
    };
    void send();
    const timer = setInterval(() => void send(), Math.max(1, interval) * 1000);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [stream, interval, offsetRef]);
  return { sent, lastSent, sendError };
}
