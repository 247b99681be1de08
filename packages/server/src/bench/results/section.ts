/** One measured thing: a name, and a run that prints what it measures and answers its figures. */
export interface ResultsSection {
  name: string;
  run(log: (line: string) => void): Promise<Record<string, number | string>>;
}
