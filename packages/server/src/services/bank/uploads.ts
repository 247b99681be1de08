import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  BANK_LIMITS,
  type AuditAction,
  type BankAudioData,
  type BankCasesData,
  type BankImageData,
} from '@examhall/contract';
import { fail } from '../../errors.js';
import { FileRepository } from '../../repositories/files.js';
import { audioSeconds, contentTypeOf } from '../../storage/media.js';
import type { ObjectStore } from '../../storage/objectStore.js';
import { contentMatches, sniffAudio } from '../../storage/sniff.js';
import type { StaffActor } from '../access.js';
import { casesFromZip } from '../caseZip.js';
import type { MediaLinks } from '../media.js';
import type { Upload } from '../profile.js';
import { imageTargetOf, type ImageTarget } from '../questionBody.js';
import { type BankTxDeps, inTransaction, need } from './common.js';

/** What the bank's uploads need. */
export interface BankUploadDeps extends BankTxDeps {
  store: ObjectStore;
  media: MediaLinks;
  /** Where the API answers: pictures and audio are linked under it. */
  apiPrefix: string;
  clock: () => number;
}

/** How long the editor's link to uploaded audio stays valid. */
const AUDIO_LINK_MS = 2 * 3_600_000;
/** Object keys of pictures: content-addressed, so the same picture is stored once and its URL never changes. */
const IMAGE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/** Uploads for bank questions (pictures, listening audio, zips of hidden cases), audited, and the stored pictures. */
export class BankUploadService {
  /** Where the API answers: pictures and audio are linked under it. */
  readonly apiPrefix: string;

  constructor(private readonly deps: BankUploadDeps) {
    this.apiPrefix = deps.apiPrefix;
  }

  /** Stores bytes under a content-addressed key (once) and records who uploaded them, audited. */
  private async storeUpload(
    actor: StaffActor,
    action: AuditAction,
    key: string,
    file: Upload,
    mime: string,
    extra = {},
  ) {
    if (!(await this.deps.store.head(key))) await this.deps.store.put(key, file.data);
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    await inTransaction(this.deps, async ({ trx, audit }) => {
      await new FileRepository(trx).record({
        key,
        owner_kind: 'staff',
        owner_id: actor.id,
        file_name: file.fileName.slice(0, 200),
        mime,
        size: file.data.length,
        sha256,
        created_at: this.deps.clock(),
      });
      await audit.record(actor, action, { kind: 'file', id: null }, null, {
        key,
        file_name: file.fileName.slice(0, 200),
        mime,
        size: file.data.length,
        ...extra,
      });
    });
  }

  /** Stores a picture (PNG, JPEG, GIF or WebP by its bytes) and answers its public, content-addressed URL. */
  async uploadImage(actor: StaffActor, file: Upload): Promise<BankImageData> {
    need(this.deps.access, actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > BANK_LIMITS.imageBytes) {
      throw fail('payload_too_large', `file: at most ${BANK_LIMITS.imageBytes / 1024 / 1024} MB`);
    }
    const target = this.imageTarget(file.data);
    if (!target) throw fail('unsupported_media_type', 'file: a picture must be a PNG, JPEG, GIF or WebP file');
    await this.storeUpload(actor, 'bank.upload.image', target.key, file, target.mime);
    return { ...target, size: file.data.length };
  }

  /**
   * Where a picture is stored and served, from its bytes alone (content-addressed: the same picture is one
   * object with one URL); null when the bytes are not a PNG, JPEG, GIF or WebP picture.
   */
  imageTarget(data: Buffer): ImageTarget | null {
    return imageTargetOf(data, this.apiPrefix);
  }

  /** Stores a picture at its `imageTarget` key, once (imports record the files in their own audit entry). */
  async putImage(data: Buffer): Promise<void> {
    const target = this.imageTarget(data);
    if (!target) throw new Error('not a picture');
    if (!(await this.deps.store.head(target.key))) await this.deps.store.put(target.key, data);
  }

  /** A stored picture by its public name, for `/media/images/:name`. */
  async image(name: string): Promise<{ stream: Readable; size: number; type: string }> {
    if (!IMAGE_NAME.test(name)) throw fail('not_found', 'no such picture');
    const key = `bank/images/${name}`;
    const found = await this.deps.store.stream(key);
    if (!found) throw fail('not_found', 'no such picture');
    return { ...found, type: contentTypeOf(key) };
  }

  /** Stores listening audio (WAV, MP3, Ogg or M4A by its bytes), reading its length on the server. */
  async uploadAudio(actor: StaffActor, file: Upload): Promise<BankAudioData> {
    need(this.deps.access, actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > BANK_LIMITS.audioBytes) {
      throw fail('payload_too_large', `file: at most ${BANK_LIMITS.audioBytes / 1024 / 1024} MB`);
    }
    const type = sniffAudio(file.data);
    if (!type) throw fail('unsupported_media_type', 'file: audio must be a WAV, MP3, Ogg or M4A file');
    const seconds = await audioSeconds(file.data, type);
    if (seconds === null) throw fail('validation_error', "file: the audio's length could not be read");
    // Tenths of a second, never 0: what the candidate's player shows and the play link's lifetime build on.
    const duration = Math.max(0.1, Math.round(seconds * 10) / 10);
    const key = `bank/audio/${createHash('sha256').update(file.data).digest('hex')}${type.ext}`;
    await this.storeUpload(actor, 'bank.upload.audio', key, file, type.mime, { duration_s: duration });
    const token = await this.deps.media.sign(key, AUDIO_LINK_MS);
    return {
      key,
      url: `${this.apiPrefix}/media/audio?t=${encodeURIComponent(token)}`,
      mime: type.mime,
      size: file.data.length,
      duration_s: duration,
    };
  }

  /** Reads hidden cases from a zip of .in/.out pairs (nothing is stored: the editor puts them in the key). */
  async uploadCases(actor: StaffActor, file: Upload): Promise<BankCasesData> {
    need(this.deps.access, actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (!contentMatches('application/zip', file.data))
      throw fail('unsupported_media_type', 'file: hidden cases come as a ZIP archive');
    const { cases, totalBytes } = await casesFromZip(file.data);
    await this.deps.audit.record(actor, 'bank.upload.cases', { kind: 'file', id: null }, null, {
      file_name: file.fileName.slice(0, 200),
      size: file.data.length,
      cases: cases.length,
      unpacked_bytes: totalBytes,
    });
    return { cases, total_bytes: totalBytes };
  }
}
