import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconCircleCheckFilled,
  IconFile,
  IconFileMusic,
  IconFolder,
  IconPlayerPlayFilled,
  IconVolume,
} from '@tabler/icons-react';
import type { DriveEntry } from '@mixroom/contracts';
import { isAudioExtension } from '@mixroom/shared';
import { formatBytes, formatDuration } from '../../../lib/format/format';
import { extensionOf } from '../folder-view-rules';

/**
 * One entry of a linked folder (or one search hit) as an option of the folder view's list box. A
 * chosen file is highlighted (tinted, outlined and ticked) and marked aria-selected. A hit names the
 * folder it is in (`where`); clicking that line, or → on the hit, opens it.
 * An entry that can't be picked stays focusable (aria-disabled) so the keys still move past it.
 * An audio file can be heard first: its ▶ (or the P key) opens the folder view's preview. Its
 * duration shows once the server has read the file's header, or a preview has played it.
 */
export function FolderEntryRow({
  entry,
  pickable,
  selected,
  tabbable,
  where,
  onActivate,
  onOpenFolder,
  onFocus,
  onPreview,
  previewing,
  duration,
}: {
  entry: DriveEntry;
  pickable: boolean;
  selected: boolean;
  /** The one entry the Tab key reaches (the others by the arrow keys). */
  tabbable: boolean;
  /** A hit's folder, its names from the top ([] for the top folder); null outside a search. */
  where: string[] | null;
  onActivate: () => void;
  onOpenFolder: () => void;
  onFocus: () => void;
  /** Opens this file's preview; absent where the entry is no audio file. */
  onPreview?: (() => void) | undefined;
  /** This file is the one being previewed. */
  previewing?: boolean;
  /** Seconds, once a preview read them. */
  duration?: number | undefined;
}) {
  const place = where && (where.length ? where.join(' › ') : 'the top folder');
  const shortcuts = [where ? 'ArrowRight' : null, onPreview ? 'P' : null].filter(Boolean).join(' ');
  return (
    <UnstyledButton
      role="option"
      aria-selected={selected}
      aria-disabled={!pickable || undefined}
      tabIndex={tabbable ? 0 : -1}
      aria-keyshortcuts={shortcuts || undefined}
      onClick={onActivate}
      onFocus={onFocus}
      onKeyDown={(event) => {
        const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
        if (onPreview && plain && (event.key === 'p' || event.key === 'P')) {
          event.preventDefault();
          return onPreview();
        }
        if (!where || event.key !== 'ArrowRight') return;
        event.preventDefault();
        onOpenFolder();
      }}
      px="xs"
      py={6}
      style={{
        borderRadius: 6,
        opacity: pickable ? 1 : 0.45,
        cursor: pickable ? 'pointer' : 'not-allowed',
        background: selected ? 'var(--mantine-color-violet-light)' : undefined,
        boxShadow: selected ? 'inset 0 0 0 1px var(--mantine-color-violet-5)' : undefined,
      }}
      data-entry={entry.name}
      data-selected={selected || undefined}
    >
      <Group gap="sm" wrap="nowrap" justify="space-between">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          {entry.kind === 'folder' ? (
            <IconFolder size={18} color="var(--mantine-color-yellow-5)" style={{ flexShrink: 0 }} />
          ) : isAudioExtension(extensionOf(entry.name)) ? (
            <IconFileMusic size={18} color="var(--mantine-color-violet-4)" style={{ flexShrink: 0 }} />
          ) : (
            <IconFile size={18} style={{ flexShrink: 0 }} />
          )}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" truncate title={entry.name}>
              {entry.name}
            </Text>
            {place && (
              <Text
                size="xs"
                c="violet.3"
                truncate
                title={`Open ${place}`}
                data-folder-of={entry.name}
                style={{ textDecoration: 'underline dotted' }}
                onClick={(event) => {
                  event.stopPropagation();
                  onOpenFolder();
                }}
              >
                in {place}
              </Text>
            )}
          </Stack>
        </Group>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {duration !== undefined && (
            <Text size="xs" c="dimmed" ff="monospace" data-duration-of={entry.name}>
              {formatDuration(duration)}
            </Text>
          )}
          {onPreview && (
            // Inside the option (a button of its own would nest one button in another): the P key
            // is its keyboard way.
            <Text
              span
              c={previewing ? 'violet.3' : 'dimmed'}
              title={`Listen to ${entry.name} (P)`}
              data-preview-of={entry.name}
              onClick={(event) => {
                event.stopPropagation();
                onPreview();
              }}
              style={{ display: 'inline-flex', padding: 4, borderRadius: 4, cursor: 'pointer' }}
            >
              {previewing ? (
                <IconVolume size={16} aria-hidden="true" />
              ) : (
                <IconPlayerPlayFilled size={14} aria-hidden="true" />
              )}
            </Text>
          )}
          {entry.size !== null && (
            <Text size="xs" c="dimmed">
              {formatBytes(entry.size)}
            </Text>
          )}
          {selected && <IconCircleCheckFilled size={16} color="var(--mantine-color-violet-4)" aria-hidden="true" />}
        </Group>
      </Group>
    </UnstyledButton>
  );
}
