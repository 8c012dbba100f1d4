import { Card, Table, Text } from '@mantine/core';
import type { Me } from '@mixroom/contracts';
import { UNLIMITED } from '@mixroom/shared';
import { formatBytes, formatLimit } from '../../../lib/format/format';

/** What the plans a user holds add up to (the larger of each limit, unlimited wins). */
export function LimitsCard({ me }: { me: Me }) {
  const { limits, entitlements } = me;
  const rows: [string, string][] = [
    ['Storage', formatBytes(limits.storageMb * 1_000_000)],
    ['Largest transfer', formatBytes(limits.transferMaxBytes)],
    [
      'Transfers per month',
      limits.transfersPerMonth === UNLIMITED
        ? `Unlimited (${entitlements.transfersThisMonth} this month)`
        : `${entitlements.transfersThisMonth} of ${limits.transfersPerMonth} used`,
    ],
    ['Transfer expiry choices', `${limits.transferDurationDays.join(', ')} days`],
    ['Transfer passwords', limits.transferPassword ? 'Yes' : 'No'],
    ['Live guests per room', formatLimit(limits.liveGuests)],
    ['Live session length', limits.liveMaxDurationMs < 0 ? 'Unlimited' : `${limits.liveMaxDurationMs / 60_000} min`],
    ['Live recording and broadcast', limits.liveRecording ? 'Yes' : 'No'],
    ['Broadcasting allowed', me.canBroadcast ? 'Yes' : 'No'],
    ['AI credits per month', String(limits.creditsPerMonth)],
  ];
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      <Text fw={700} mb="sm">
        What your plans allow
      </Text>
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Td c="dimmed">{label}</Table.Td>
              <Table.Td ta="right">{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
