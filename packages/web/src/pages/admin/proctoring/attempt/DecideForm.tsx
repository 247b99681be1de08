import { api, type FlagDecision, type IntegrityRecord } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { request } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';

/**
 * Confirm or dismiss one flag with an internal note and, apart, a note to the candidate (the only one their
 * integrity log shows). A decision can be changed; the audit log keeps each one.
 */
export function DecideForm({ record }: { record: IntegrityRecord }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [note, setNote] = useState(record.decision_note);
  const [candidateNote, setCandidateNote] = useState(record.candidate_note);
  const decide = useMutation({
    mutationFn: (decision: FlagDecision) =>
      request(api.proctorDecide, {
        body: { record_id: record.id, decision, note, candidate_note: candidateNote },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'proctor', 'attempt'] });
      void message.success(t('console.proctor.decided'));
    },
  });
  return (
    <Space wrap>
      <NoteInput
        label={t('console.proctor.noteLabel')}
        value={note}
        onChange={setNote}
        testId={`decide-note-${record.id}`}
      />
      <NoteInput
        label={t('console.proctor.candidateNoteLabel')}
        value={candidateNote}
        onChange={setCandidateNote}
        testId={`decide-candidate-note-${record.id}`}
      />
      <Button
        size="small"
        danger
        loading={decide.isPending && decide.variables === 'confirmed'}
        onClick={() => decide.mutate('confirmed')}
        data-testid={`decide-confirm-${record.id}`}
      >
        {t('console.proctor.confirm')}
      </Button>
      <Button
        size="small"
        loading={decide.isPending && decide.variables === 'dismissed'}
        onClick={() => decide.mutate('dismissed')}
        data-testid={`decide-dismiss-${record.id}`}
      >
        {t('console.proctor.dismiss')}
      </Button>
      {decide.isError && <Typography.Text type="danger">{decide.error.message}</Typography.Text>}
    </Space>
  );
}

/** One note field of a decision, labelled by its placeholder for screen readers too. */
function NoteInput(p: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  return (
    <Input
      id={p.testId}
      aria-label={p.label}
      size="small"
      value={p.value}
      maxLength={1000}
      onChange={(e) => p.onChange(e.target.value)}
      placeholder={p.label}
      style={{ width: 220 }}
      data-testid={p.testId}
    />
  );
}
