/** Calling codes offered at login, each with the pattern of a valid mobile number. */

/** One calling code. */
export interface AreaCode {
  /** Digits after '+'. */
  code: string;
  /** Country or region name in Chinese. */
  name_zh: string;
  /** Country or region name in English. */
  name_en: string;
  /** Pattern of the national mobile number. */
  pattern: string;
}

/** The calling codes, mainland China first. */
export const AREA_CODES: readonly AreaCode[] = [
  { code: '86', name_zh: '中国大陆', name_en: 'Mainland China', pattern: '^1[3-9]\\d{9}$' },
  { code: '852', name_zh: '中国香港', name_en: 'Hong Kong, China', pattern: '^[4-9]\\d{7}$' },
  { code: '853', name_zh: '中国澳门', name_en: 'Macao, China', pattern: '^6\\d{7}$' },
  { code: '886', name_zh: '中国台湾', name_en: 'Taiwan, China', pattern: '^9\\d{8}$' },
  { code: '1', name_zh: '美国/加拿大', name_en: 'USA/Canada', pattern: '^[2-9]\\d{9}$' },
  { code: '44', name_zh: '英国', name_en: 'United Kingdom', pattern: '^7\\d{9}$' },
  { code: '65', name_zh: '新加坡', name_en: 'Singapore', pattern: '^[89]\\d{7}$' },
  { code: '81', name_zh: '日本', name_en: 'Japan', pattern: '^[789]0\\d{8}$' },
  { code: '82', name_zh: '韩国', name_en: 'South Korea', pattern: '^1\\d{8,9}$' },
  { code: '61', name_zh: '澳大利亚', name_en: 'Australia', pattern: '^4\\d{8}$' },
  { code: '49', name_zh: '德国', name_en: 'Germany', pattern: '^1[5-7]\\d{8,9}$' },
  { code: '33', name_zh: '法国', name_en: 'France', pattern: '^[67]\\d{8}$' },
];

/** Default calling code. */
export const DEFAULT_AREA_CODE = '86';

/** True when `phone` is a valid mobile number for `areaCode`. */
export function isValidPhone(areaCode: string, phone: string): boolean {
  const entry = AREA_CODES.find((a) => a.code === areaCode);
  return entry !== undefined && new RegExp(entry.pattern).test(phone);
}
