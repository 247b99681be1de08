import { describe, expect, it } from 'vitest';
import { parseBulkPhones, parseReminder, smsSize } from './invitationText.js';

describe('parseBulkPhones', () => {
  it('reads one phone a line, with an optional calling code, and lists the bad lines by number', () => {
    const r = parseBulkPhones('13800138000\n+852 51234567\n\nnot a phone\n+852-6123 4567\n12345', '86');
    expect(r.valid).toEqual([
      { area_code: '86', phone: '13800138000' },
      { area_code: '852', phone: '51234567' },
      { area_code: '852', phone: '61234567' },
    ]);
    expect(r.invalid).toEqual([
      { line: 4, text: 'not a phone' },
      { line: 6, text: '12345' },
    ]);
    expect(r.duplicates).toBe(0);
  });

  it('keeps the first column of a csv, skips its header and counts repeats once', () => {
    const csv = '\uFEFFphone,name\r\n13800138000,张三\r\n"13900139000",李四\r\n13800138000,again\r\n';
    const r = parseBulkPhones(csv, '86');
    expect(r.valid.map((p) => p.phone)).toEqual(['13800138000', '13900139000']);
    expect(r.invalid).toEqual([]);
    expect(r.duplicates).toBe(1);
  });

  it('uses the chosen calling code for lines without one', () => {
    expect(parseBulkPhones('51234567', '852').valid).toEqual([{ area_code: '852', phone: '51234567' }]);
    expect(parseBulkPhones('51234567', '86').invalid).toEqual([{ line: 1, text: '51234567' }]);
  });

  it('finds nothing in blank text', () => {
    expect(parseBulkPhones(' \n\n', '86')).toEqual({ valid: [], invalid: [], duplicates: 0 });
  });
});

describe('smsSize', () => {
  it('counts GSM texts in 160 characters, then parts of 153', () => {
    expect(smsSize('')).toMatchObject({ segments: 0, encoding: 'gsm' });
    expect(smsSize('a'.repeat(160))).toMatchObject({ length: 160, segments: 1, perSegment: 160 });
    expect(smsSize('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(smsSize('a'.repeat(306)).segments).toBe(2);
    expect(smsSize('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character twice', () => {
    expect(smsSize('{}').length).toBe(4);
    expect(smsSize('€'.repeat(80))).toMatchObject({ length: 160, segments: 1 });
    expect(smsSize('€'.repeat(81)).segments).toBe(2);
  });

  it('counts any Chinese text as UCS-2: 70, then parts of 67', () => {
    expect(smsSize('您'.repeat(70))).toMatchObject({ encoding: 'ucs2', length: 70, segments: 1 });
    expect(smsSize('您'.repeat(69) + 'a')).toMatchObject({ encoding: 'ucs2', segments: 1 });
    expect(smsSize('您'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSize('您'.repeat(135)).segments).toBe(3);
  });
});

describe('parseReminder', () => {
  it('reads minutes, hours and days', () => {
    expect(parseReminder('90')).toBe(90);
    expect(parseReminder('90m')).toBe(90);
    expect(parseReminder('2h')).toBe(120);
    expect(parseReminder(' 1D ')).toBe(1440);
  });
  it('refuses anything else', () => {
    expect(parseReminder('0')).toBeNull();
    expect(parseReminder('1w')).toBeNull();
    expect(parseReminder('')).toBeNull();
    expect(parseReminder('-5')).toBeNull();
  });
});
