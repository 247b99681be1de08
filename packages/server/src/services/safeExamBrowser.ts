import { timingSafeEqual } from 'node:crypto';
import { api, SebRequirement, type SebSettingsData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { ExamRepository } from '../repositories/exams.js';
import type { AccessService, StaffActor } from './access.js';
import type { ExamCatalog } from './catalog.js';
import { configKeyOf, examSebSettings, plistXml, sebRequestHash } from './sebConfig.js';

/** What SEB sent with one request: where it went and the two key hashes, as received. */
export interface SebProof {
  /** The request's path and query as this server received it. */
  path: string;
  /** The origin the request named (its protocol and Host, as a trusted proxy forwarded them). */
  origin: string;
  /** `X-SafeExamBrowser-ConfigKeyHash`. */
  configKeyHash: string | undefined;
  /** `X-SafeExamBrowser-RequestHash` (the browser exam key's). */
  requestHash: string | undefined;
}

/** The oldest SEB whose requests carry the config key hash on every platform (SEB's documentation). */
const SEB_MIN_VERSION = '3.0';

/** The settings file's name for an exam. */
const settingsFileName = (examId: number) => `examhall-exam-${examId}.seb`;

/** True when `sent` is one of the hashes SEB would send for `urls` with one of `keys` (compared in constant time). */
function proves(sent: string | undefined, urls: readonly string[], keys: readonly string[]): boolean {
  if (!sent || !/^[0-9a-fA-F]{64}$/.test(sent)) return false;
  const got = Buffer.from(sent.toLowerCase(), 'hex');
  let ok = false;
  for (const key of keys) {
    for (const url of urls) ok = timingSafeEqual(got, Buffer.from(sebRequestHash(url, key), 'hex')) || ok;
  }
  return ok;
}

/**
 * Safe Exam Browser for the exams that require it: the settings file the console offers (with its config key,
 * computed from it as SEB documents it, so the two always agree), and the check every candidate call of such an exam
 * passes (http/route.ts) before its handler runs.
 */
export class SafeExamBrowserService {
  private readonly exams: ExamRepository;
  /** The settings are the same for every exam of this site: made once. */
  private readonly settings: { xml: string; configKey: string; startUrl: string };

  constructor(
    db: Db,
    private readonly deps: { access: AccessService; catalog: ExamCatalog; publicUrl: string },
  ) {
    this.exams = new ExamRepository(db);
    const settings = examSebSettings(deps.publicUrl);
    this.settings = { xml: plistXml(settings), configKey: configKeyOf(settings), startUrl: String(settings.startURL) };
  }

  /** GET /admin/exam/seb-settings: the exam's settings file and its config key. */
  async settingsFile(actor: StaffActor, examId: number): Promise<SebSettingsData> {
    await this.deps.access.requireFor(actor, api.examEditorSebSettings, examId);
    if (!(await this.exams.byId(examId))) throw fail('not_found', `no such exam ${examId}`);
    return {
      file_name: settingsFileName(examId),
      content: this.settings.xml,
      config_key: this.settings.configKey,
      start_url: this.settings.startUrl,
    };
  }

  /**
   * The absolute URLs the browser may have requested: the path behind PUBLIC_URL (its origin, and its path prefix when a
   * proxy in front took it off), and the path at the origin the request named (an API on a host of its own).
   */
  private requestedUrls(proof: SebProof): string[] {
    const site = new URL(this.deps.publicUrl);
    const prefix = site.pathname.replace(/\/+$/, '');
    const behindPublic = `${site.origin}${prefix && !proof.path.startsWith(`${prefix}/`) ? prefix : ''}${proof.path}`;
    return [...new Set([behindPublic, `${proof.origin}${proof.path}`])];
  }

  /**
   * Refuses a candidate's call on an exam that requires SEB unless the request proves it: its config key hash (and,
   * when the exam lists browser exam keys, its request hash) computed over the URL it requested. `kind` says whether
   * `id` is the exam's or one of its invitations'. An exam or invitation that does not exist passes: its handler
   * answers for it.
   */
  async require(kind: 'exam' | 'invitation', id: number, proof: SebProof): Promise<void> {
    const examId = kind === 'exam' ? id : (await this.exams.invitation(id))?.exam_id;
    if (examId === undefined) return;
    const head = await this.deps.catalog.head(examId);
    if (!head?.exam.seb) return;
    const seb = SebRequirement.parse(JSON.parse(head.exam.seb));
    if (!seb.required) return;
    const configKey = seb.config_key || this.settings.configKey;
    const urls = this.requestedUrls(proof);
    const keysProved =
      proves(proof.configKeyHash, urls, [configKey]) &&
      (seb.browser_exam_keys.length === 0 || proves(proof.requestHash, urls, seb.browser_exam_keys));
    if (keysProved) return;
    const file = settingsFileName(examId);
    throw fail(
      'seb_required',
      `this exam is taken in Safe Exam Browser (version ${SEB_MIN_VERSION} or later) started with its settings file ${file}, which the organiser sends: install SEB, open the file, and the exam list opens in it`,
      { browser: 'Safe Exam Browser', min_version: SEB_MIN_VERSION, settings_file: file },
    );
  }
}
