import { createHash } from 'node:crypto';
import {
  RESUME_MAX_BYTES,
  RESUME_TYPES,
  storedDegree,
  type ConstData,
  type MyInfoData,
  type ResumeData,
  type ResumeFile,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { CandidateRepository, type Candidate } from '../repositories/candidates.js';
import { FileRepository } from '../repositories/files.js';
import { contentMatches } from '../storage/sniff.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { CandidateSessions } from './candidateSessions.js';
import { COLLEGES, MAJORS } from './referenceData.js';

/** An uploaded file, read in full. */
export interface Upload {
  fileName: string;
  mime: string;
  data: Buffer;
}

/** The candidate's profile and resume, and the lists behind the form. */
export class ProfileService {
  private readonly candidates: CandidateRepository;
  private readonly files: FileRepository;

  constructor(
    db: Db,
    private readonly store: ObjectStore,
    private readonly sessions: Pick<CandidateSessions, 'changed'>,
    private readonly clock: () => number,
  ) {
    this.candidates = new CandidateRepository(db);
    this.files = new FileRepository(db);
  }

  /** The profile. */
  async myInfo(c: Candidate): Promise<MyInfoData> {
    const fresh = (await this.candidates.findById(c.id))!;
    return {
      name: fresh.name,
      school: fresh.school,
      major: fresh.major,
      degree: storedDegree(fresh.degree),
      graduation_year: fresh.graduation_year,
      resume: (await this.resume(c)).resume,
    };
  }

  /** Saves the whole profile. */
  async save(
    c: Candidate,
    p: { name: string; school: string; major: string; degree: string; graduation_year: number },
  ): Promise<MyInfoData> {
    await this.candidates.saveProfile(c.id, p);
    this.sessions.changed(c.id);
    return this.myInfo(c);
  }

  /** The stored resume. */
  async resume(c: Candidate): Promise<ResumeData> {
    const row = await this.files.resumeOf(c.id);
    const resume: ResumeFile | null = row
      ? { file_name: row.file_name, size: row.size, mime: row.mime, sha256: row.sha256, uploaded_at: row.uploaded_at }
      : null;
    return { resume };
  }

  /** Stores a resume (PDF, DOC or DOCX, checked by content) in object storage and replaces the old one. */
  async uploadResume(c: Candidate, file: Upload): Promise<ResumeData> {
    const ext = RESUME_TYPES[file.mime];
    if (!ext) throw fail('unsupported_media_type', 'file: the resume must be a PDF, DOC or DOCX file');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > RESUME_MAX_BYTES)
      throw fail('payload_too_large', `file: at most ${RESUME_MAX_BYTES / 1024 / 1024} MB`);
    if (!contentMatches(file.mime, file.data))
      throw fail('unsupported_media_type', 'file: its content is not what its type says');
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    const key = `resumes/${c.id}/${sha256}${ext}`;
    await this.store.put(key, file.data);
    const now = this.clock();
    await this.files.record({
      key,
      owner_kind: 'candidate',
      owner_id: c.id,
      file_name: file.fileName.slice(0, 200),
      mime: file.mime,
      size: file.data.length,
      sha256,
      created_at: now,
    });
    await this.files.setResume(c.id, key, now);
    return this.resume(c);
  }

  /** Colleges whose name or city contains the keyword (in either language, any case). */
  colleges(keyword: string | undefined): ConstData {
    const k = keyword?.toLowerCase();
    return {
      list: COLLEGES.filter((x) => !k || x.name.toLowerCase().includes(k) || x.city.toLowerCase().includes(k)).slice(
        0,
        50,
      ),
    };
  }

  /** Majors by discipline. */
  majors() {
    return { list: MAJORS.map((m) => ({ category: m.category, majors: [...m.majors] })) };
  }
}
