import { ActionIcon, Box, Collapse, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFile, IconLink, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format/format';
import type { PickedFile } from '../../uploads/walk-drop';
import type { LinkedPick } from '../linked-pick';
import type { MissingFile } from '../transfer-draft-store';

const folderOf = (path: string) => path.split('/').slice(0, -1).join('/');

const rowStyle = { borderRadius: 6, background: 'var(--mantine-color-dark-6)' } as const;

/**
 * 'Selected files N': each file's name, size and folder, with a remove button; files from linked
 * storage carry a link icon and their account and path. At most 500 px high.
 */
export function SelectedFilesList({
  files,
  missing,
  linked = [],
  onRemove,
  onRemoveLinked,
  disabled,
}: {
  files: PickedFile[];
  /** Files to choose again (the selection could not be kept through the sign-in). */
  missing: MissingFile[];
  /** Files the server copies from linked storage. */
  linked?: LinkedPick[];
  onRemove: (file: PickedFile) => void;
  onRemoveLinked?: (file: LinkedPick) => void;
  disabled?: boolean;
}) {
  const [opened, setOpened] = useState(true);
  const total = files.reduce((sum, f) => sum + f.file.size, 0) + linked.reduce((sum, f) => sum + f.size, 0);
  if (files.length === 0 && missing.length === 0 && linked.length === 0) return null;
  return (
    <Box data-testid="selected-files">
      <UnstyledButton onClick={() => setOpened((o) => !o)} aria-expanded={opened} w="100%">
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            {opened ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            <Text fw={600}>Selected files {files.length + linked.length}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {formatBytes(total)}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse in={opened}>
        <Box mah={500} mt="xs" style={{ overflowY: 'auto', overflowX: 'hidden' }}>
          <Stack gap={4}>
            {files.map((picked) => (
              <Group key={picked.relativePath} gap="sm" wrap="nowrap" px="xs" py={4} style={rowStyle}>
                <IconFile size={16} style={{ flexShrink: 0 }} />
                <Box style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" truncate="end" title={picked.file.name}>
                    {picked.file.name}
                  </Text>
                  {folderOf(picked.relativePath) && (
                    <Text size="xs" c="dimmed" truncate="end" title={picked.relativePath}>
                      {folderOf(picked.relativePath)}
                    </Text>
                  )}
                </Box>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatBytes(picked.file.size)}
                </Text>
                <Tooltip label="Remove">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    disabled={disabled}
                    aria-label={`Remove ${picked.relativePath}`}
                    onClick={() => onRemove(picked)}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            {linked.map((l) => (
              <Group
                key={`${l.connectorId}:${l.path}`}
                gap="sm"
                wrap="nowrap"
                px="xs"
                py={4}
                style={rowStyle}
                data-testid="linked-file"
              >
                <IconLink
                  size={16}
                  style={{ flexShrink: 0 }}
                  color="var(--mantine-color-violet-4)"
                  aria-label="From linked storage"
                />
                <Box style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" truncate="end" title={l.name}>
                    {l.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end" title={`${l.accountName}: ${l.path}`}>
                    {l.accountName} · {l.path}
                  </Text>
                </Box>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatBytes(l.size)}
                </Text>
                <Tooltip label="Remove">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    disabled={disabled}
                    aria-label={`Remove ${l.name}`}
                    onClick={() => onRemoveLinked?.(l)}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            {missing.map((m) => (
              <Group key={m.relativePath} gap="sm" wrap="nowrap" px="xs" py={4} data-testid="missing-file">
                <IconFile size={16} style={{ flexShrink: 0, opacity: 0.5 }} />
                <Text size="sm" c="yellow" truncate="end" style={{ minWidth: 0, flex: 1 }} title={m.relativePath}>
                  {m.relativePath}
                </Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatBytes(m.size)} · choose again
                </Text>
              </Group>
            ))}
          </Stack>
        </Box>
      </Collapse>
    </Box>
  );
}
