/** The candidate workbook the candidate and invitation benches share, and reading it in-process. */
import { CANDIDATE_LIMITS } from '@examhall/contract';
import { readTable, writeTable } from '@examhall/importers';
import { readCandidateRows } from '../services/candidateSheet.js';

/** The workbook's file name. */
export const FILE_NAME = 'candidates.xlsx';

/** The phone of candidate `i` of the workbook. */
export const phoneOf = (i: number): string => `139${String(i).padStart(8, '0')}`;

/** The workbook: the known columns in Chinese and two custom columns, every phone different. */
export async function workbook(rows: number): Promise<Uint8Array> {
  const header = ['手机号', '姓名', '邮箱', '学校', '专业', '学历', '毕业年份', '意向岗位', '来源'];
  const data = Array.from({ length: rows }, (_, i) => [
    phoneOf(i),
    `考生${i}`,
    `c${i}@example.com`,
    `学校${i % 300}`,
    ['计算机科学与技术', '软件工程', '数学', '电子信息'][i % 4]!,
    ['本科', '硕士', '博士'][i % 3]!,
    2025 + (i % 3),
    ['后端开发', '前端开发', '算法'][i % 3]!,
    '校园招聘',
  ]);
  return writeTable('xlsx', header, data);
}

/** Reads the file in this process: the table, then the candidates. */
export async function parseMs(bytes: Uint8Array, rows: number): Promise<number> {
  const started = performance.now();
  const table = await readTable(FILE_NAME, bytes, {
    fileBytes: CANDIDATE_LIMITS.fileBytes,
    rows: CANDIDATE_LIMITS.importRows,
    columns: 100,
  });
  if (table.refused) throw new Error(table.problem.message);
  const read = readCandidateRows(table.header, table.rows);
  if (read.entries.filter((e) => e.valid).length !== rows) throw new Error(`read ${read.entries.length} of ${rows}`);
  return performance.now() - started;
}
