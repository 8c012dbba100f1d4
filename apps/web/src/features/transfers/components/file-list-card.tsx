import { Box, Card, Collapse, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFile } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format/format';

/** A list this short is shown at once; a longer one waits folded until asked for. */
const OPEN_UP_TO = 12;

/** The files of a transfer, expandable. */
export function FileListCard({ files }: { files: { id: string; path: string; size: number }[] }) {
  const [opened, setOpened] = useState(files.length <= OPEN_UP_TO);
  return (
    <Card withBorder radius="md" padding="md">
      <UnstyledButton onClick={() => setOpened((o) => !o)} aria-expanded={opened} w="100%">
        <Group gap={6} wrap="nowrap">
          {opened ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          <Text fw={600}>Files {files.length}</Text>
        </Group>
      </UnstyledButton>
      <Collapse in={opened}>
        <Box mah={500} mt="sm" style={{ overflowY: 'auto', overflowX: 'hidden' }}>
          <Stack gap={4}>
            {files.map((file) => (
              <Group key={file.id} gap="sm" wrap="nowrap">
                <IconFile size={16} style={{ flexShrink: 0 }} />
                <Text size="sm" truncate="end" style={{ minWidth: 0, flex: 1 }} title={file.path}>
                  {file.path}
                </Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatBytes(file.size)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Box>
      </Collapse>
    </Card>
  );
}
