/**
 * Well-known evaluation dimensions with their names in Chinese and English. An evaluation item's dimension is
 * free text its author writes; one that matches an id here (case and spacing aside) is shown by its name in
 * the page's language, any other as written.
 */
export const DIMENSIONS = [
  { id: 'teamwork', zh: '团队协作', en: 'Teamwork' },
  { id: 'resilience', zh: '抗压能力', en: 'Resilience' },
  { id: 'communication', zh: '沟通能力', en: 'Communication' },
  { id: 'leadership', zh: '领导力', en: 'Leadership' },
  { id: 'learning', zh: '学习能力', en: 'Learning agility' },
  { id: 'responsibility', zh: '责任心', en: 'Responsibility' },
  { id: 'innovation', zh: '创新意识', en: 'Innovation' },
  { id: 'integrity', zh: '诚信', en: 'Integrity' },
  { id: 'execution', zh: '执行力', en: 'Execution' },
  { id: 'logic', zh: '逻辑思维', en: 'Logical thinking' },
  { id: 'customer_focus', zh: '客户导向', en: 'Customer focus' },
  { id: 'adaptability', zh: '适应能力', en: 'Adaptability' },
] as const;

/** A well-known dimension. */
export type Dimension = (typeof DIMENSIONS)[number];

const normalise = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The well-known dimension an author's text names, by id or by either name; undefined for any other text. */
export function knownDimension(text: string): Dimension | undefined {
  const n = normalise(text);
  return DIMENSIONS.find((d) => d.id === n || normalise(d.en) === n || d.zh === text.trim());
}

/** A dimension's name in a language: the catalogue's name when it is well known, the author's text otherwise. */
export function dimensionName(text: string, lang: 'zh' | 'en'): string {
  return knownDimension(text)?.[lang] ?? text;
}
