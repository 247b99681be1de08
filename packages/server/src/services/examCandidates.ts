import {
  CANDIDATE_STATUSES,
  formatServerTime,
  type api,
  type SmsState,
  type CandidateStatus,
  type ExamCandidateRow,
  type ExamCandidatesData,
  type ParsedQuery,
} from '@examhall/contract';
import { writeTable } from '@examhall/importers';
import type { Db } from '../db/database.js';
import type { Download } from '../files.js';
import { ExamCandidateRepository, type ExamCandidateRecord } from '../repositories/examCandidates.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';

/** Rows an export holds at most (far above any exam's invitations; a bound, not a page). */
const EXPORT_ROWS = 200_000;

/** The statuses' names in the export, per language. */
const STATUS_NAMES: Record<CandidateStatus, { zh: string; en: string }> = {
  invited: { zh: '已邀请', en: 'Invited' },
  logged_in: { zh: '已登录', en: 'Logged in' },
  checks_passed: { zh: '已通过设备检测', en: 'Checks passed' },
  in_progress: { zh: '作答中', en: 'In progress' },
  submitted: { zh: '已交卷', en: 'Submitted' },
  ended_by_proctor: { zh: '被监考结束', en: 'Ended by a proctor' },
  absent: { zh: '缺考', en: 'Absent' },
};

const EXPORT_HEADERS = {
  zh: [
    '邀请编号',
    '区号',
    '手机号',
    '姓名',
    '邮箱',
    '学校',
    '状态',
    '短信',
    '邀请时间',
    '最近登录',
    '开始时间',
    '结束时间',
    '结束原因',
    '得分',
  ],
  en: [
    'Invitation',
    'Area code',
    'Phone',
    'Name',
    'Email',
    'School',
    'Status',
    'SMS',
    'Invited at',
    'Last login',
    'Started at',
    'Finished at',
    'Finish reason',
    'Score',
  ],
} as const;

/** An epoch time as the server's local time (UTC+8), "2026-11-21 10:00:00". */
function serverTime(ms: number | null): string {
  return ms === null ? '' : formatServerTime(ms);
}

/** A record as the console shows it. */
function toRow(r: ExamCandidateRecord): ExamCandidateRow {
  return {
    ...r,
    name: r.name ?? '',
    email: r.email ?? '',
    school: r.school ?? '',
    sms: r.sms as SmsState | null,
  };
}

/**
 * An exam's invited candidates with their status, as staff who may read the exam see it (its team's authors,
 * assigned proctors and graders, admins): counts per status, a filtered and sorted page, and the export.
 */
export class ExamCandidateService {
  private readonly repo: ExamCandidateRepository;

  constructor(
    db: Db,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly clock: () => number,
  ) {
    this.repo = new ExamCandidateRepository(db);
  }

  /** One page, the number matching, and the counts per status. */
  async list(actor: StaffActor, q: ParsedQuery<typeof api.examCandidates>): Promise<ExamCandidatesData> {
    await this.access.require(actor, 'exam.read', 'exam', q.exam_id);
    const now = this.clock();
    const f = { examId: q.exam_id, now, q: q.q, status: q.status };
    const counted = await this.repo.counts(f);
    const counts = Object.fromEntries(CANDIDATE_STATUSES.map((s) => [s, counted.get(s) ?? 0])) as Record<
      CandidateStatus,
      number
    >;
    const all = [...counted.values()].reduce((a, b) => a + b, 0);
    const total = q.status ? counts[q.status] : all;
    const rows = await this.repo.page(f, {
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    return { list: rows.map(toRow), total, counts, all, at: now };
  }

  /** The list, filtered as the console's, as a CSV or xlsx file. */
  async export(actor: StaffActor, q: ParsedQuery<typeof api.examCandidatesExport>): Promise<Download> {
    await this.access.require(actor, 'exam.read', 'exam', q.exam_id);
    const rows = await this.repo.page(
      { examId: q.exam_id, now: this.clock(), q: q.q, status: q.status },
      { sort: 'invited_at', order: 'asc', offset: 0, limit: EXPORT_ROWS },
    );
    const lang = q.lang;
    const bytes = await writeTable(
      q.format,
      EXPORT_HEADERS[lang],
      rows.map((r) => [
        r.invitation_id,
        r.area_code,
        r.phone,
        r.name ?? '',
        r.email ?? '',
        r.school ?? '',
        STATUS_NAMES[r.status][lang],
        r.sms ?? '',
        serverTime(r.invited_at),
        serverTime(r.last_login_at),
        serverTime(r.started_at),
        serverTime(r.finished_at),
        r.finish_reason ?? '',
        r.score,
      ]),
      lang === 'zh' ? '考生状态' : 'Candidates',
    );
    const suffix = q.status ? `-${q.status}` : '';
    const fileName = `exam-${q.exam_id}-candidates${suffix}.${q.format}`;
    // The file holds candidates' phones and names: who took which, and how many, stays on record.
    await this.audit.record(actor, 'exam.candidates_export', { kind: 'exam', id: q.exam_id }, null, {
      file_name: fileName,
      format: q.format,
      status: q.status ?? null,
      q: q.q ?? null,
      candidates: rows.length,
    });
    return {
      bytes: Buffer.from(bytes),
      mime:
        q.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName,
    };
  }
}
