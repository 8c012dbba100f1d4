import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { TransferSummary } from '@mixroom/contracts';
import { formatDate } from '../../../lib/format/format';

/** 'Sent to': every recipient with how often they downloaded, and the downloads of people with the link only. */
export function SentToCard({
  transfer,
}: {
  transfer: Pick<TransferSummary, 'recipients' | 'anonymousDownloads' | 'mode'>;
}) {
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Text fw={600}>Sent to</Text>
        {transfer.recipients.length === 0 && (
          <Text size="sm" c="dimmed">
            {transfer.mode === 'link' ? 'Sent as a link only: whoever has the link can open it.' : 'No recipients.'}
          </Text>
        )}
        {transfer.recipients.map((recipient) => (
          <Group key={recipient.email} justify="space-between" wrap="nowrap" gap="sm" data-testid="recipient">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <Avatar size={28} radius="xl" name={recipient.email} color="initials" />
              <div style={{ minWidth: 0 }}>
                <Text size="sm" truncate="end" title={recipient.email}>
                  {recipient.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {recipient.lastDownloadAt
                    ? `Last download ${formatDate(recipient.lastDownloadAt)}`
                    : 'Not downloaded yet'}
                </Text>
              </div>
            </Group>
            <Badge variant="light" color={recipient.downloadCount > 0 ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
              {recipient.downloadCount} {recipient.downloadCount === 1 ? 'download' : 'downloads'}
            </Badge>
          </Group>
        ))}
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" c="dimmed">
            People with the link
          </Text>
          <Badge variant="light" color="gray" data-testid="anonymous-downloads">
            {transfer.anonymousDownloads} {transfer.anonymousDownloads === 1 ? 'download' : 'downloads'}
          </Badge>
        </Group>
      </Stack>
    </Card>
  );
}
