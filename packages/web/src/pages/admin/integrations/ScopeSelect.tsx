import { TeamSelect } from '../staff/TeamSelect.js';

/** Every exam (null) or one team's exams; a form control (value/onChange from Form.Item). */
export function ScopeSelect(props: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  testId?: string;
  id?: string;
}) {
  return <TeamSelect {...props} noneLabel="console.integrations.allExams" />;
}
