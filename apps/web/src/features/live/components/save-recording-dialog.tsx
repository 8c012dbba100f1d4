import { Button, Group, Modal, Progress, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useListing, useSearch } from '../../storage/queries';
import { uploadFile } from '../../uploads/upload-engine';
import { liveApi } from '../api';

const ROOT_FILTERS = { sort: 'newest', owner: 'all', kind: 'all' } as const;

interface Props {
  code: string;
  recording: { blob: Blob; fileName: string } | null;
  onClose: () => void;
}

/**
 * "Save to project": the last recording becomes a new version of a project the host may edit (the
 * server checks the plan and the project; the file goes up through the uploads' signed parts).
 */
export function SaveRecordingDialog({ code, recording, onClose }: Props) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const [picked, setPicked] = useState<{ id: string; name: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const search = useSearch(debounced);
  const root = useListing(null, ROOT_FILTERS);
  const projects = debounced
    ? (search.data?.items ?? []).filter((i) => i.kind === 'project').map((i) => ({ id: i.id, name: i.name }))
    : (root.data?.pages.flatMap((p) => p.items) ?? [])
        .filter((i) => i.kind === 'project')
        .slice(0, 30)
        .map((i) => ({ id: i.id, name: i.name }));

  const save = async () => {
    if (!recording || !picked) return;
    setProgress(0);
    try {
      const name = recording.fileName.replace(/\.wav$/, '').slice(0, 50);
      const ticket = await liveApi.saveRecording(code, {
        projectId: picked.id,
        name,
        fileName: recording.fileName,
        size: recording.blob.size,
      });
      await uploadFile({
        api,
        ticket,
        file: recording.blob,
        onProgress: ({ sentBytes, totalBytes }) => setProgress((100 * sentBytes) / Math.max(1, totalBytes)),
      });
      notify('success', 'Recording', `Saved to ${picked.name}`);
      onClose();
    } catch (error) {
      notify('error', 'Recording', error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal opened={recording !== null} onClose={onClose} title="Save to project" centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {recording?.fileName} becomes a new version of the project you pick.
        </Text>
        <TextInput
          placeholder="Search your projects"
          aria-label="Search your projects"
          leftSection={<IconSearch size={16} />}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
        />
        <ScrollArea.Autosize mah={220}>
          <Stack gap={4}>
            {projects.length === 0 && (
              <Text size="sm" c="dimmed">
                {debounced ? 'No project matches.' : 'No project at the top of your library yet.'}
              </Text>
            )}
            {projects.map((p) => (
              <UnstyledButton key={p.id} onClick={() => setPicked(p)} aria-pressed={picked?.id === p.id}>
                <Text size="sm" fw={picked?.id === p.id ? 700 : 400} c={picked?.id === p.id ? 'violet' : undefined}>
                  {p.name}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {progress !== null && <Progress value={progress} animated />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!picked} loading={progress !== null} onClick={() => void save()}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
