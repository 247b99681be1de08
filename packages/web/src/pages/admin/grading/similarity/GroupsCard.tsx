import type { SimilarityGroup } from '@examhall/contract';
import { Card, List, Tag } from 'antd';
import { useI18n } from '../../../../i18n/index.js';

/** Groups of three or more candidates joined by close pairs; nothing when there is none. */
export function GroupsCard({ groups }: { groups: readonly SimilarityGroup[] }) {
  const { t } = useI18n();
  if (groups.length === 0) return null;
  return (
    <Card size="small" title={t('sim.groups')} data-testid="similarity-groups">
      <List
        size="small"
        dataSource={[...groups]}
        renderItem={(g) => (
          <List.Item>
            <div>
              <div>{t('sim.group', { n: g.members.length, pairs: g.pairs, max: g.max_score.toFixed(2) })}</div>
              {g.members.map((m) => (
                <Tag key={m.attempt_id}>{m.name || m.phone}</Tag>
              ))}
            </div>
          </List.Item>
        )}
      />
    </Card>
  );
}
