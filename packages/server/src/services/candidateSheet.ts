/**
 * A candidate list's rows to candidates: headers to columns (known in Chinese or English, any other a custom
 * field), each row checked with the rules of the add form (the login page's phone rule among them), rows with
 * the same phone merged. Pure: no database; the service adds what exists already. The console's calls run it on a
 * worker thread (parsing/).
 */
import { createHash } from 'node:crypto';
import {
  AREA_CODES,
  CANDIDATE_HEADERS,
  CANDIDATE_LIMITS,
  candidateColumnOf,
  DEFAULT_AREA_CODE,
  DEGREE_NAMES,
  DEGREES,
  degreeOf,
  EmailField,
  GRADUATION_YEARS,
  isValidPhone,
  PROFILE_TEXT_MAX,
  type CandidateColumn,
  type Degree,
  type CandidateImportProblem,
} from '@examhall/contract';
import { readTable, type TableRow } from '@examhall/importers';
import { fail } from '../errors.js';

/** The values of one candidate as read. */
export interface SheetCandidate {
  area_code: string;
  phone: string;
  name: string;
  email: string;
  school: string;
  major: string;
  degree: Degree | '';
  graduation_year: number | null;
  custom: Record<string, string>;
}

/** One candidate of the file: its values, the rows it comes from, and whether a row error keeps it out. */
export interface SheetEntry {
  row: number;
  rows: number[];
  values: SheetCandidate;
  valid: boolean;
}

/** The file read as candidates. */
export interface SheetRead {
  columns: CandidateColumn[];
  customColumns: string[];
  /** The phone column's header as the file writes it. */
  phoneColumn: string | null;
  entries: SheetEntry[];
  problems: CandidateImportProblem[];
  rowsRead: number;
  merged: number;
}

type Texts = { en: string; zh: string };

/** A located problem with its two texts. */
function located(
  row: number | null,
  column: string | null,
  code: string,
  severity: CandidateImportProblem['severity'],
  t: Texts,
): CandidateImportProblem {
  const where =
    row === null
      ? null
      : column === null
        ? { en: `row ${row}`, zh: `第 ${row} 行` }
        : { en: `row ${row}, column ${column}`, zh: `第 ${row} 行“${column}”列` };
  return {
    row,
    column,
    code,
    severity,
    message: where ? `${where.en}: ${t.en}` : t.en,
    message_zh: where ? `${where.zh}：${t.zh}` : t.zh,
  };
}

/**
 * The problem of a row whose phone is a person only other teams have: the import neither links nor changes them,
 * and the row shows nothing of theirs.
 */
export function inOtherTeam(row: number, phoneColumn: string | null): CandidateImportProblem {
  return located(row, phoneColumn, 'candidate_in_other_team', 'error', {
    en: "this phone is another team's candidate, so the row is not imported; an admin can add the person to your team",
    zh: '该手机号是其他团队的考生，此行不导入；管理员可将其加入本团队',
  });
}

/** Why a file cannot be read as a candidate list (no phone column), or null. */
export function headerRefusal(header: TableRow): string | null {
  const cols = header.cells.map(candidateColumnOf);
  if (!cols.includes('phone')) {
    const p = CANDIDATE_HEADERS.phone;
    return `row ${header.n}: no phone column (a header ${p.zh} or ${p.en} is needed)`;
  }
  return null;
}

/** Area codes longest first, to split "+852 9123 4567". */
const CODES_LONGEST_FIRST = [...AREA_CODES].map((a) => a.code).sort((a, b) => b.length - a.length);

/** A phone cell's digits and the area code it carries ("+86 138..." or "0086-138..."), if any. */
function splitPhone(cell: string): { code: string | null; digits: string } {
  const compact = cell.replace(/[\s\-()（）.]/g, '');
  const intl = /^(?:\+|00)(\d+)$/.exec(compact);
  if (intl) {
    const all = intl[1]!;
    const code = CODES_LONGEST_FIRST.find((c) => all.startsWith(c) && isValidPhone(c, all.slice(c.length)));
    if (code) return { code, digits: all.slice(code.length) };
    return { code: null, digits: compact };
  }
  return { code: null, digits: compact };
}

/** A graduation year from "2025", "2025届", "2025-06-30" or "2025.6", or null; NaN when unreadable. */
function yearOf(cell: string): number | null {
  if (cell === '') return null;
  const m = /^(\d{4})(?:\s*届|\s*年|[-./]\d{1,2}(?:[-./]\d{1,2})?)?$/.exec(cell.trim());
  return m ? Number(m[1]) : NaN;
}

/** A header cell: the known column it names (null: custom), its text, and whether it is ignored. */
interface HeaderCell {
  col: CandidateColumn | null;
  text: string;
  ignored: boolean;
}

/** Reads one data row; answers its values and its problems. */
function readRow(row: TableRow, header: HeaderCell[]): { values: SheetCandidate; problems: CandidateImportProblem[] } {
  const problems: CandidateImportProblem[] = [];
  const cell = (c: CandidateColumn) => {
    const i = header.findIndex((h) => h.col === c);
    return i < 0 ? { text: '', head: null as string | null } : { text: row.cells[i] ?? '', head: header[i]!.text };
  };
  const err = (head: string | null, code: string, t: Texts) => problems.push(located(row.n, head, code, 'error', t));
  const v: SheetCandidate = {
    area_code: DEFAULT_AREA_CODE,
    phone: '',
    name: '',
    email: '',
    school: '',
    major: '',
    degree: '',
    graduation_year: null,
    custom: {},
  };
  const area = cell('area_code');
  const areaText = area.text.replace(/^\+|^00/, '').trim();
  const phone = cell('phone');
  const split = splitPhone(phone.text);
  if (areaText !== '') {
    if (!AREA_CODES.some((a) => a.code === areaText)) {
      err(area.head, 'area_code_unknown', {
        en: `unknown area code ${area.text}`,
        zh: `未知区号 ${area.text}`,
      });
    } else v.area_code = areaText;
  } else if (split.code) v.area_code = split.code;
  v.phone = split.digits;
  if (phone.text === '') {
    err(phone.head, 'phone_missing', { en: 'no phone number', zh: '缺少手机号' });
  } else if (!/^\d{4,15}$/.test(v.phone) || !isValidPhone(v.area_code, v.phone)) {
    err(phone.head, 'phone_invalid', {
      en: `${phone.text} is not a valid mobile number for +${v.area_code}`,
      zh: `${phone.text} 不是有效的 +${v.area_code} 手机号`,
    });
  }
  for (const c of ['name', 'school', 'major'] as const) {
    const x = cell(c);
    v[c] = x.text;
    if (x.text.length > PROFILE_TEXT_MAX) {
      err(x.head, 'too_long', {
        en: `longer than ${PROFILE_TEXT_MAX} characters`,
        zh: `超过 ${PROFILE_TEXT_MAX} 个字符`,
      });
    }
  }
  // Degrees are stored as codes, the candidate's profile form's; a text naming none is dropped, not the row.
  const degree = cell('degree');
  const d = degreeOf(degree.text);
  if (d === null) {
    problems.push(
      located(row.n, degree.head, 'degree_unknown', 'warning', {
        en: `${degree.text} is not a degree the profile knows (${DEGREES.map((x) => DEGREE_NAMES[x].en).join(', ')}); left empty`,
        zh: `无法识别学历“${degree.text}”（可填：${DEGREES.map((x) => DEGREE_NAMES[x].zh).join('、')}），已留空`,
      }),
    );
  } else v.degree = d;
  const email = cell('email');
  if (!EmailField.safeParse(email.text).success) {
    err(email.head, 'email_invalid', {
      en: `${email.text} is not an email address`,
      zh: `${email.text} 不是有效的邮箱`,
    });
  } else v.email = email.text;
  const year = cell('graduation_year');
  const y = yearOf(year.text);
  if (y !== null && (Number.isNaN(y) || y < GRADUATION_YEARS.min || y > GRADUATION_YEARS.max)) {
    err(year.head, 'year_invalid', {
      en: `${year.text} is not a graduation year (${GRADUATION_YEARS.min} to ${GRADUATION_YEARS.max})`,
      zh: `${year.text} 不是有效的毕业年份（${GRADUATION_YEARS.min}–${GRADUATION_YEARS.max}）`,
    });
  } else v.graduation_year = y;
  header.forEach((h, i) => {
    const text = row.cells[i] ?? '';
    if (h.col !== null || h.ignored || text === '') return;
    if (text.length > CANDIDATE_LIMITS.text) {
      err(h.text, 'too_long', {
        en: `longer than ${CANDIDATE_LIMITS.text} characters`,
        zh: `超过 ${CANDIDATE_LIMITS.text} 个字符`,
      });
    } else v.custom[h.text] = text;
  });
  return { values: v, problems };
}

/** Later non-empty values win; custom fields are merged the same way. */
function mergeInto(a: SheetCandidate, b: SheetCandidate): SheetCandidate {
  const pick = (x: string, y: string) => (y !== '' ? y : x);
  return {
    area_code: a.area_code,
    phone: a.phone,
    name: pick(a.name, b.name),
    email: pick(a.email, b.email),
    school: pick(a.school, b.school),
    major: pick(a.major, b.major),
    degree: b.degree !== '' ? b.degree : a.degree,
    graduation_year: b.graduation_year ?? a.graduation_year,
    custom: { ...a.custom, ...b.custom },
  };
}

/** Maps the header row: known columns, custom columns (within the limit), duplicates noted. */
function readHeader(header: TableRow, problems: CandidateImportProblem[]): HeaderCell[] {
  const seen = new Set<string>();
  let customs = 0;
  return header.cells.map((text) => {
    const col = candidateColumnOf(text);
    const key = col ?? `custom:${text}`;
    if (text === '' || seen.has(key)) {
      if (text !== '') {
        problems.push(
          located(header.n, text, 'column_repeated', 'warning', {
            en: 'the column appears twice; the second is ignored',
            zh: '该列重复出现，已忽略第二列',
          }),
        );
      }
      return { col: null, text: '', ignored: true };
    }
    seen.add(key);
    if (col === null) {
      customs++;
      if (customs > CANDIDATE_LIMITS.customFields || text.length > CANDIDATE_LIMITS.customName) {
        problems.push(
          located(header.n, text, 'column_ignored', 'warning', {
            en: `at most ${CANDIDATE_LIMITS.customFields} custom columns of up to ${CANDIDATE_LIMITS.customName} characters; this one is ignored`,
            zh: `自定义列最多 ${CANDIDATE_LIMITS.customFields} 个、列名最长 ${CANDIDATE_LIMITS.customName} 个字符，该列已忽略`,
          }),
        );
        return { col: null, text: '', ignored: true };
      }
    }
    return { col, text, ignored: false };
  });
}

/**
 * Reads the rows under a header as candidates. A row with an error is kept out (and shown); rows with the same
 * area code and phone are one candidate, later non-empty values winning, each merge reported on the later row.
 */
export function readCandidateRows(header: TableRow, rows: readonly TableRow[]): SheetRead {
  const problems: CandidateImportProblem[] = [];
  const cols = readHeader(header, problems);
  const usable = cols.filter((c) => !c.ignored);
  const entries: SheetEntry[] = [];
  const byPhone = new Map<string, SheetEntry>();
  let merged = 0;
  for (const row of rows) {
    const read = readRow(row, cols);
    problems.push(...read.problems);
    const { values } = read;
    const valid = !read.problems.some((p) => p.severity === 'error');
    if (!valid) {
      entries.push({ row: row.n, rows: [row.n], values, valid: false });
      continue;
    }
    const key = `${values.area_code} ${values.phone}`;
    const first = byPhone.get(key);
    // A row that adds to an earlier one with the same phone may leave the name out; a first row may not.
    if (!first && values.name === '') {
      const nameHead = usable.find((u) => u.col === 'name')?.text ?? null;
      problems.push(located(row.n, nameHead, 'name_missing', 'error', { en: 'no name', zh: '缺少姓名' }));
      entries.push({ row: row.n, rows: [row.n], values, valid: false });
      continue;
    }
    if (first) {
      first.values = mergeInto(first.values, values);
      first.rows.push(row.n);
      merged++;
      const phoneHead = usable.find((u) => u.col === 'phone')?.text ?? null;
      problems.push(
        located(row.n, phoneHead, 'merged', 'warning', {
          en: `same phone as row ${first.row}: merged into it (later non-empty values win)`,
          zh: `与第 ${first.row} 行手机号相同，已合并（以后出现的非空值为准）`,
        }),
      );
      continue;
    }
    const entry: SheetEntry = { row: row.n, rows: [row.n], values, valid: true };
    byPhone.set(key, entry);
    entries.push(entry);
  }
  return {
    columns: usable.flatMap((u) => (u.col ? [u.col] : [])),
    customColumns: usable.flatMap((u) => (u.col === null ? [u.text] : [])),
    phoneColumn: usable.find((u) => u.col === 'phone')?.text ?? null,
    entries,
    problems: problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0)),
    rowsRead: rows.length,
    merged,
  };
}

/** Columns a row of a sheet is read to (known ones plus the custom limit, with room for ignored ones). */
export const MAX_COLUMNS = 100;

/** A candidate file read: its digest and its rows as candidates. */
export interface CandidateFile {
  sha256: string;
  sheet: SheetRead;
}

/**
 * Reads a candidate file (xlsx or CSV): `candidate_import_refused` for a file that cannot be read or is over a
 * bound (its size, its rows: `data` names the problem and the bound), or that has no phone column.
 */
export async function readCandidateFile(name: string, bytes: Uint8Array): Promise<CandidateFile> {
  const table = await readTable(name, bytes, {
    fileBytes: CANDIDATE_LIMITS.fileBytes,
    rows: CANDIDATE_LIMITS.importRows,
    columns: MAX_COLUMNS,
  });
  if (table.refused) {
    const { code, message, params } = table.problem;
    throw fail('candidate_import_refused', message, {
      problem: code,
      ...(typeof params.limit === 'number' ? { limit: params.limit } : {}),
    });
  }
  const refusal = headerRefusal(table.header);
  if (refusal) throw fail('candidate_import_refused', `${name}: ${refusal}`);
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    sheet: readCandidateRows(table.header, table.rows),
  };
}
