import { ActionIcon, Badge, Card, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconCopy,
  IconDots,
  IconDownload,
  IconEdit,
  IconLock,
  IconRefresh,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import type { TransferSummary } from '@mixroom/contracts';
import { formatBytes, formatDate } from '../../../lib/format/format';
import { copyTransferLink } from './copy-link-field';
import { RecipientAvatars } from './recipient-avatars';

/**
 * One sent transfer: name, when, size, files, recipients, downloads. An expired one says so in red
 * and offers only Delete; a live one copies its link and opens its page.
 */
export function TransferTile({
  transfer,
  onOpen,
  onDelete,
  onReload,
}: {
  transfer: TransferSummary;
  onOpen: () => void;
  onDelete: () => void;
  onReload: () => void;
}) {
  const expired = transfer.status === 'expired';
  const caps = transfer.capabilities;
  const downloads = transfer.recipients.reduce((sum, r) => sum + r.downloadCount, transfer.anonymousDownloads);
  const openable = caps.canEdit && !expired;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="transfer-tile"
      data-name={transfer.name}
      style={{ cursor: openable ? 'pointer' : 'default' }}
      onClick={openable ? onOpen : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconSend size={18} style={{ flexShrink: 0 }} color="var(--mantine-color-violet-4)" />
            <Text fw={600} lineClamp={2} title={transfer.name} style={{ overflowWrap: 'anywhere' }}>
              {transfer.name}
            </Text>
            {transfer.hasPassword && <IconLock size={14} aria-label="Password protected" style={{ flexShrink: 0 }} />}
          </Group>
          <Group gap={4} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
            {caps.canCopy && !expired && (
              <Tooltip label="Copy link">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Copy link of ${transfer.name}`}
                  onClick={() => void copyTransferLink(transfer.link)}
                >
                  <IconCopy size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={`Actions for ${transfer.name}`}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {openable && (
                  <Menu.Item leftSection={<IconEdit size={14} />} onClick={onOpen}>
                    Edit
                  </Menu.Item>
                )}
                {expired && caps.canReload && (
                  <Menu.Item leftSection={<IconRefresh size={14} />} onClick={onReload}>
                    Reload
                  </Menu.Item>
                )}
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  disabled={!caps.canDelete}
                  onClick={onDelete}
                >
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {transfer.fileCount} {transfer.fileCount === 1 ? 'file' : 'files'} · {formatBytes(transfer.size)} ·{' '}
          {transfer.status === 'failed' ? 'started' : 'sent'} {formatDate(transfer.createdAt)}
        </Text>
        {/* The avatars and the download count keep their whole width: short of room they go under the date. */}
        <Group justify="space-between" wrap="wrap" gap="xs" style={{ rowGap: 6 }}>
          {expired ? (
            <Text size="sm" c="red" fw={600} style={{ minWidth: 0 }}>
              Expired on {formatDate(transfer.expiresAt)}
            </Text>
          ) : transfer.status === 'failed' ? (
            <Text size="sm" c="red" style={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid="transfer-failure">
              Not sent: {transfer.failure}
            </Text>
          ) : transfer.status === 'uploading' ? (
            <Badge variant="light" color="yellow">
              Uploading…
            </Badge>
          ) : (
            <Text size="sm" style={{ minWidth: 0 }}>
              Expires on {formatDate(transfer.expiresAt)}
            </Text>
          )}
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <RecipientAvatars emails={transfer.recipients.map((r) => r.email)} />
            <Tooltip label={`Downloaded ${downloads} ${downloads === 1 ? 'time' : 'times'}`}>
              <Badge
                variant="light"
                color={downloads > 0 ? 'teal' : 'gray'}
                leftSection={<IconDownload size={12} />}
                data-testid="download-count"
                style={{ flexShrink: 0, overflow: 'visible' }}
              >
                {downloads}
              </Badge>
            </Tooltip>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
