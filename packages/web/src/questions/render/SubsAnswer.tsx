import { useI18n } from '../../i18n/index.js';
import { Html } from '../../exam/questions/Html.js';
import { ListeningPlayer } from '../../exam/questions/ListeningPlayer.js';
import { Text } from '../../ui/Typography.js';
import { SubInput } from './SubInput.js';
import type { RendererProps } from './types.js';

/** The sub-questions of a reading or listening question, each answered by its own input. */
function SubQuestions({ subject, value, onChange, ctx }: RendererProps) {
  const { t } = useI18n();
  const subs = value?.kind === 'subs' ? value.subs : {};
  return (
    <ol className="sub-questions" data-testid="sub-questions">
      {(subject.subs ?? []).map((sub, i) => (
        <li key={sub.id} className="sub-question" data-testid="sub-question">
          <Text strong>{t('exam.subQuestion', { n: i + 1 })}</Text>
          <Html html={sub.stem} className="question-text" />
          <SubInput
            subject={sub}
            value={subs[String(sub.id)]}
            onChange={(v) => onChange({ kind: 'subs', subs: { ...subs, [String(sub.id)]: v } })}
            pasteBlocked={ctx.allowPaste ? null : ctx.warnPaste}
            label={t('exam.subQuestion', { n: i + 1 })}
          />
        </li>
      ))}
    </ol>
  );
}

/** A reading question: the passage, then its sub-questions. */
export function ReadingAnswer(props: RendererProps) {
  const { t } = useI18n();
  return (
    <div className="reading">
      <section className="passage question-text" aria-label={t('exam.passage')} data-testid="passage">
        <Html html={props.subject.passage ?? ''} />
      </section>
      <SubQuestions {...props} />
    </div>
  );
}

/** A listening question: the player (plays counted by the server), then its sub-questions. */
export function ListeningAnswer(props: RendererProps) {
  return (
    <>
      <ListeningPlayer examId={props.ctx.examId} subjectId={props.subject.id} />
      <SubQuestions {...props} />
    </>
  );
}
