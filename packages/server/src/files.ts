import type { Readable } from 'node:stream';

/** A file a download call answers. */
export interface Download {
  /** Its bytes, or a stream of them (a large file from object storage, never read whole). */
  bytes: Uint8Array | Readable;
  /** Content type. */
  mime: string;
  /** The name the browser saves it under. */
  fileName: string;
}
