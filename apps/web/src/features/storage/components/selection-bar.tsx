import { ActionIcon, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconRestore, IconSelectAll, IconTrash, IconX } from '@tabler/icons-react';
import classes from './selection-bar.module.css';

interface Props {
  count: number;
  inTrash?: boolean;
  onDelete: () => void;
  onDownload?: () => void;
  downloading?: boolean;
  onRecover?: () => void;
  onClear: () => void;
  onSelectAll: () => void;
  /** A word on what a click did not do (a selected folder is not opened). */
  hint?: string | null;
}

/**
 * 'Selected Items: N' with the actions that apply to a selection. Render it as the last child of the
 * page's column: it pushes itself to the foot and stays there while the grid scrolls.
 */
export function SelectionBar({
  count,
  inTrash = false,
  onDelete,
  onDownload,
  downloading = false,
  onRecover,
  onClear,
  onSelectAll,
  hint = null,
}: Props) {
  if (count === 0) return null;
  return (
    <Paper
      withBorder
      radius="md"
      px="md"
      py={6}
      className={classes.bar}
      role="region"
      aria-label="Selection"
      onClick={(e) => e.stopPropagation()}
    >
      <Group justify="space-between" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} size="sm">
            Selected Items: {count}
          </Text>
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </div>
        <Group gap={4} wrap="nowrap">
          {inTrash && onRecover && (
            <Tooltip label="Recover">
              <ActionIcon variant="subtle" aria-label="Recover selected" onClick={onRecover}>
                <IconRestore size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {!inTrash && onDownload && (
            <Tooltip label="Download">
              <ActionIcon
                variant="subtle"
                aria-label="Download selected"
                onClick={onDownload}
                loading={downloading}
                disabled={downloading}
              >
                <IconDownload size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label={inTrash ? 'Delete for good' : 'Delete'}>
            <ActionIcon variant="subtle" color="red" aria-label="Delete selected" onClick={onDelete}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Select all">
            <ActionIcon variant="subtle" aria-label="Select all" onClick={onSelectAll}>
              <IconSelectAll size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Clear selection">
            <ActionIcon variant="subtle" aria-label="Clear selection" onClick={onClear}>
              <IconX size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}
