import { Box, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileZip } from '@tabler/icons-react';
import { formatBytes } from '../../../lib/format/format';

interface Entry {
  id: string;
  email: string | null;
  fileId: string | null;
  fileName: string;
  startedAt: string;
  completed: boolean;
  bytes: number;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Who downloaded what and when, and whether it finished (newest first). */
export function DownloadLogCard({ entries }: { entries: Entry[] | undefined }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Text fw={600}>Download log</Text>
        {!entries?.length ? (
          <Text size="sm" c="dimmed">
            Nobody has downloaded anything yet.
          </Text>
        ) : (
          <Box mah={320} style={{ overflowY: 'auto', overflowX: 'hidden' }}>
            <Stack gap="xs" data-testid="download-log">
              {entries.map((entry) => (
                <Group key={entry.id} gap="sm" wrap="nowrap" align="flex-start">
                  {entry.fileId ? (
                    <IconDownload size={16} style={{ flexShrink: 0, marginTop: 3 }} />
                  ) : (
                    <IconFileZip size={16} style={{ flexShrink: 0, marginTop: 3 }} />
                  )}
                  <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                    <Text size="sm" truncate="end" title={entry.fileName}>
                      {entry.fileId ? entry.fileName : 'All files (ZIP)'}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {entry.email ?? 'Someone with the link'} · {when(entry.startedAt)}
                    </Text>
                  </Stack>
                  <Badge
                    size="sm"
                    variant="light"
                    tt="none"
                    color={entry.completed ? 'teal' : 'yellow'}
                    style={{ flexShrink: 0 }}
                  >
                    {entry.completed ? 'Completed' : `${formatBytes(entry.bytes)} so far`}
                  </Badge>
                </Group>
              ))}
            </Stack>
          </Box>
        )}
      </Stack>
    </Card>
  );
}
