import { Divider, Skeleton } from 'antd';
import { LoadError } from '../shared/PageTitle.js';
import { InvitationsTable } from './InvitationsTable.js';
import { useSlots } from './scheduleQueries.js';
import { SlotsPanel } from './SlotsPanel.js';

/** The exam's schedule: its slots and who fills them, then its invitations with their accommodations. */
export function SchedulePanel({ examId, readOnly }: { examId: number; readOnly: boolean }) {
  const slots = useSlots(examId);
  if (slots.isError) return <LoadError error={slots.error} />;
  if (!slots.data) return <Skeleton active />;
  return (
    <div data-testid="exam-schedule">
      <SlotsPanel examId={examId} data={slots.data} readOnly={readOnly} />
      <Divider />
      <InvitationsTable examId={examId} slots={slots.data.list} readOnly={readOnly} />
    </div>
  );
}
