import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconCloudUpload, IconFiles, IconFolder, IconLink } from '@tabler/icons-react';
import { useRef } from 'react';
import { filesFromInput, type PickedFile } from '../../uploads/walk-drop';

export interface FilePickZoneProps {
  onPick: (files: PickedFile[], source: 'files' | 'folder') => void;
  /** Files are over the page. */
  dragging: boolean;
  disabled: boolean;
  /** What dropping does, shown while files are over the page. */
  dropText: string;
  /** Opens the linked storage browser; absent when the user has no linked account. */
  onLinked?: (() => void) | undefined;
}

/**
 * The drop area with Select Files and Select Folder (a folder keeps its paths), and From linked
 * storage when the user linked an account.
 */
export function FilePickZone({ onPick, dragging, disabled, dropText, onLinked }: FilePickZoneProps) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const picked = (input: HTMLInputElement | null, source: 'files' | 'folder') => {
    if (!input?.files) return;
    onPick(filesFromInput(input.files), source);
    // The same file chosen again after a removal must fire a change.
    input.value = '';
  };

  return (
    <Box
      p="md"
      style={{
        border: '1px dashed var(--mantine-color-dark-3)',
        borderRadius: 12,
        textAlign: 'center',
        background: dragging ? 'var(--mantine-color-violet-light)' : undefined,
      }}
    >
      <Stack gap="xs" align="center">
        <IconCloudUpload size={32} stroke={1.4} color="var(--mantine-color-violet-4)" />
        <Text size="sm">{dragging ? dropText : 'Drag files and folders here'}</Text>
        <Group gap="xs" justify="center">
          <Button
            variant="light"
            leftSection={<IconFiles size={16} />}
            disabled={disabled}
            onClick={() => filesInput.current?.click()}
          >
            Select Files
          </Button>
          <Button
            variant="light"
            leftSection={<IconFolder size={16} />}
            disabled={disabled}
            onClick={() => folderInput.current?.click()}
          >
            Select Folder
          </Button>
          {onLinked && (
            <Button variant="light" leftSection={<IconLink size={16} />} disabled={disabled} onClick={onLinked}>
              From linked storage
            </Button>
          )}
        </Group>
        <input
          ref={filesInput}
          type="file"
          multiple
          hidden
          data-testid="transfer-files-input"
          onChange={(e) => picked(e.currentTarget, 'files')}
        />
        <input
          ref={folderInput}
          type="file"
          hidden
          data-testid="transfer-folder-input"
          {...{ webkitdirectory: '', directory: '' }}
          onChange={(e) => picked(e.currentTarget, 'folder')}
        />
      </Stack>
    </Box>
  );
}
