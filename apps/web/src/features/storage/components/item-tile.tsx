import type { ReactNode } from 'react';
import { ActionIcon, Badge, Box, Card, Group, Menu, Overlay, Progress, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconDots,
  IconDownload,
  IconFolder,
  IconFolderOpen,
  IconMusic,
  IconNotes,
  IconRestore,
  IconSettings,
  IconShare,
  IconTrash,
  IconFile,
  IconAlertTriangle,
  IconCircleCheckFilled,
} from '@tabler/icons-react';
import { useState, type DragEvent, type MouseEvent } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import { formatBytes, formatDuration, formatRelative } from '../../../lib/format/format';
import type { ItemRef } from '../api';
import { isItemDrag, ITEMS_MIME, readDraggedItems } from '../drag-items';
import { PeopleAvatars } from './people-avatars';
import { VerdictBadge } from '../../../components/verdict-badge';
import classes from './item-tile.module.css';

export type TileAction = 'open' | 'notes' | 'settings' | 'delete' | 'share' | 'download' | 'recover' | 'delete-forever';

interface Props {
  item: StorageItem;
  selected: boolean;
  /** The grid's one tile in the Tab order (the others are reached with the arrow keys). */
  tabStop?: boolean;
  inTrash?: boolean;
  /** Items a drag of this tile carries: the selection when this tile is part of it. */
  dragItems: () => ItemRef[];
  onSelect: (event: MouseEvent) => void;
  onFocus?: () => void;
  onAction: (action: TileAction) => void;
  onDropItems?: (items: ItemRef[], to: string) => void;
  /** Items other features add to the tile's menu (the page passes them; storage knows no feature). */
  extraMenuItems?: ReactNode;
}

const DEFAULT_GRADIENT = 'linear-gradient(135deg, #5f3dc4 0%, #862e9c 100%)';

/**
 * A folder or project tile (300×200): preview, name, last update, size, tag, people, menu. A cell of
 * the storage grid: focusable, aria-selected, and when selected outlined, tinted and ticked, so each
 * tile of a selection of several stands out from the gradient previews around it.
 */
export function ItemTile({
  item,
  selected,
  tabStop = false,
  inTrash = false,
  dragItems,
  onSelect,
  onFocus,
  onAction,
  onDropItems,
  extraMenuItems,
}: Props) {
  const [over, setOver] = useState(false);
  const isFolder = item.kind === 'group';
  const version = item.kind === 'project' ? item.latestVersion : null;
  const processing = version && (version.status === 'processing' || version.status === 'uploading');
  const overlay = item.flag === 'CREATE' ? 'Creating...' : item.flag === 'DELETING' ? 'Deleting...' : null;
  const caps = item.capabilities;

  const acceptDrop = (event: DragEvent) => {
    if (!isFolder || inTrash || !isItemDrag(event.dataTransfer) || !onDropItems) return;
    event.preventDefault();
    setOver(true);
  };

  return (
    <Card
      withBorder
      radius="md"
      padding={0}
      w="100%"
      h={200}
      data-testid="tile"
      data-name={item.name}
      role="gridcell"
      tabIndex={tabStop ? 0 : -1}
      aria-selected={selected}
      className={classes.tile}
      onFocus={onFocus}
      draggable={!inTrash && caps.canEdit}
      onDragStart={(event) => {
        event.dataTransfer.setData(ITEMS_MIME, JSON.stringify(dragItems()));
        event.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={acceptDrop}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        if (!isFolder || !onDropItems || !isItemDrag(event.dataTransfer)) return;
        event.preventDefault();
        event.stopPropagation();
        const items = readDraggedItems(event.dataTransfer).filter((i) => i.id !== item.id);
        if (items.length) onDropItems(items, item.id);
      }}
      onClick={(event) => {
        event.stopPropagation();
        onSelect(event);
      }}
      onDoubleClick={() => !inTrash && onAction('open')}
      style={{
        cursor: 'pointer',
        userSelect: 'none',
        outline: selected
          ? '2px solid var(--mantine-color-violet-4)'
          : over
            ? '2px dashed var(--mantine-color-violet-4)'
            : undefined,
        // Apart from the border, so the outline does not melt into the violet preview.
        outlineOffset: 2,
        background: selected ? 'var(--mantine-color-violet-light)' : undefined,
        transition: 'outline-color 120ms',
      }}
    >
      <Box
        h={124}
        pos="relative"
        style={{
          background: item.color ? `linear-gradient(135deg, ${item.color} 0%, #1a1b1e 140%)` : DEFAULT_GRADIENT,
        }}
      >
        {isFolder ? (
          <Group h="100%" justify="center">
            {over ? <IconFolderOpen size={48} color="white" /> : <IconFolder size={48} color="white" stroke={1.4} />}
          </Group>
        ) : version?.thumbnailUrl ? (
          <img
            src={version.thumbnailUrl}
            alt=""
            draggable={false}
            style={{ width: '100%', height: '100%', objectFit: 'fill', opacity: 0.95 }}
          />
        ) : (
          <Group h="100%" justify="center">
            {item.type === 'AUDIO' ? (
              <IconMusic size={42} color="white" stroke={1.4} />
            ) : (
              <IconFile size={42} color="white" stroke={1.4} />
            )}
          </Group>
        )}
        {version?.durationSeconds ? (
          <Badge size="sm" variant="filled" color="dark" pos="absolute" bottom={6} right={6}>
            {formatDuration(version.durationSeconds)}
          </Badge>
        ) : null}
        {version && <VerdictBadge approval={version.approval} size="sm" pos="absolute" top={6} right={6} />}
        {version?.status === 'corrupt' && (
          <Tooltip label={version.error ?? 'This file could not be read'}>
            <Badge color="red" leftSection={<IconAlertTriangle size={12} />} pos="absolute" top={6} left={6}>
              Corrupt
            </Badge>
          </Tooltip>
        )}
        {processing && (
          <Box pos="absolute" left={8} right={8} bottom={8}>
            <Text size="xs" c="white" fw={600}>
              {version.status === 'uploading' ? 'Uploading…' : `Processing ${version.progress}%`}
            </Text>
            <Progress value={version.status === 'uploading' ? 100 : version.progress} size="xs" animated striped />
          </Box>
        )}
      </Box>
      <Stack gap={4} p="sm">
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            {selected && (
              <IconCircleCheckFilled
                size={16}
                color="var(--mantine-color-violet-4)"
                style={{ flexShrink: 0 }}
                aria-hidden="true"
              />
            )}
            <Text fw={600} size="sm" truncate="end" title={item.name}>
              {item.name}
            </Text>
          </Group>
          {caps.canView || inTrash ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={`Actions for ${item.name}`}
                  onClick={(e) => e.stopPropagation()}
                >
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
                {inTrash ? (
                  <>
                    <Menu.Item leftSection={<IconRestore size={16} />} onClick={() => onAction('recover')}>
                      Recover
                    </Menu.Item>
                    <Menu.Item
                      color="red"
                      leftSection={<IconTrash size={16} />}
                      onClick={() => onAction('delete-forever')}
                    >
                      Delete
                    </Menu.Item>
                  </>
                ) : (
                  <>
                    <Menu.Item leftSection={<IconFolderOpen size={16} />} onClick={() => onAction('open')}>
                      Open
                    </Menu.Item>
                    {!isFolder && (
                      // Notes belong to versions: there is nothing to open before the first one.
                      <Menu.Item
                        leftSection={<IconNotes size={16} />}
                        disabled={item.versionCount === 0}
                        onClick={() => onAction('notes')}
                      >
                        Notes
                      </Menu.Item>
                    )}
                    <Menu.Item
                      leftSection={<IconSettings size={16} />}
                      disabled={!caps.canEdit}
                      onClick={() => onAction('settings')}
                    >
                      Settings
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconShare size={16} />}
                      disabled={!caps.canView}
                      onClick={() => onAction('share')}
                    >
                      Share
                    </Menu.Item>
                    {/* Offered only where the server allows it: a refused download is worse than none. */}
                    {caps.canDownload && (isFolder || version) && (
                      <Menu.Item leftSection={<IconDownload size={16} />} onClick={() => onAction('download')}>
                        Download
                      </Menu.Item>
                    )}
                    {extraMenuItems}
                    <Menu.Divider />
                    <Menu.Item
                      color="red"
                      leftSection={<IconTrash size={16} />}
                      disabled={!caps.canDelete}
                      onClick={() => onAction('delete')}
                    >
                      Delete
                    </Menu.Item>
                  </>
                )}
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <Text size="xs" c="dimmed" truncate>
            {formatRelative(item.updatedAt)}
            {item.kind === 'project' && item.size > 0 ? ` · ${formatBytes(item.size)}` : ''}
          </Text>
          <Group gap={6} wrap="nowrap">
            <Badge
              size="xs"
              variant="light"
              maw={70}
              color={item.tag === 'owner' ? 'violet' : item.tag === 'editor' ? 'teal' : 'gray'}
            >
              {item.tag}
            </Badge>
            <PeopleAvatars publisher={item.publisher} collaborators={item.collaborators ?? []} size={22} />
          </Group>
        </Group>
      </Stack>
      {overlay && (
        <Overlay color="#000" backgroundOpacity={0.55} blur={1} center>
          <Text c="white" fw={700}>
            {overlay}
          </Text>
        </Overlay>
      )}
    </Card>
  );
}
