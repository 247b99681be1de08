import type { RubricKeyDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { CriteriaField } from './CriteriaField.js';
import { LanguagesField } from './LanguagesField.js';
import { RubricField } from './RubricField.js';
import { StarterCode } from './StarterCode.js';
import { ContentStem } from './StemField.js';
import type { BodyEditorProps } from './types.js';

/** What a grader follows: the rubric and its criteria, in the body's key. */
function GradingFields<B extends { key: RubricKeyDraft }>(props: {
  body: B;
  onChange: (body: B) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { body, onChange, problems, idPrefix } = props;
  return (
    <>
      <RubricField
        value={body.key.rubric}
        onChange={(rubric) => onChange({ ...body, key: { ...body.key, rubric } })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <CriteriaField
        value={body.key.criteria}
        onChange={(criteria) => onChange({ ...body, key: { ...body.key, criteria } })}
        problems={problems}
        idPrefix={idPrefix}
      />
    </>
  );
}

/** Q&A: the stem and the grader's rubric. */
export function QaEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'qa'>) {
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={problems} ctx={ctx} />
      <GradingFields body={value} onChange={onChange} problems={problems} idPrefix={idPrefix} />
    </>
  );
}

/** Programming Q&A: the stem, the languages with their starter code, and the grader's rubric. */
export function ProgrammingQaEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'programming_qa'>) {
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={problems} ctx={ctx} />
      <LanguagesField
        content={value.content}
        onChange={(content) => onChange({ ...value, content: { ...value.content, ...content } })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <StarterCode
        content={value.content}
        onChange={(starter) => onChange({ ...value, content: { ...value.content, starter } })}
        problems={problems}
      />
      <GradingFields body={value} onChange={onChange} problems={problems} idPrefix={idPrefix} />
    </>
  );
}
