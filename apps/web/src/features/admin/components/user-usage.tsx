import { Progress, Text } from '@mantine/core';
import type { AdminUserDetail } from '@mixroom/contracts';
import { formatBytes, formatLimit } from '../../../lib/format/format';
import { Section } from './section';

const KIND_LABELS = {
  projects: 'Projects',
  attachments: 'Attachments',
  trash: 'Trash',
  transfers: 'Transfers',
  incoming: 'Uploads from others in progress',
};

/** Storage used against the merged plan's limit, and this month's transfers and live minutes. */
export function UserUsage({ detail }: { detail: AdminUserDetail }) {
  const { storage } = detail.usage;
  const percent = storage.limitBytes ? Math.min(100, (storage.usedBytes / storage.limitBytes) * 100) : 0;
  return (
    <Section title="Storage and usage">
      <Text size="sm">
        {formatBytes(storage.usedBytes)} of{' '}
        {storage.limitBytes === null ? 'Unlimited' : formatBytes(storage.limitBytes)}
      </Text>
      <Progress value={percent} size="sm" color={percent > 90 ? 'red' : 'violet'} aria-label="Storage used" />
      {storage.breakdown.map((b) => (
        <Text key={b.kind} size="xs" c="dimmed">
          {KIND_LABELS[b.kind]}: {formatBytes(b.bytes)}
        </Text>
      ))}
      <Text size="xs" c="dimmed">
        Transfers this month: {detail.usage.transfersThisMonth} of {formatLimit(detail.limits.transfersPerMonth)}
      </Text>
      <Text size="xs" c="dimmed">
        Live minutes this month: {detail.usage.liveMinutesThisMonth}
      </Text>
    </Section>
  );
}
