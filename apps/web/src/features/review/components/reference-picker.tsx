import { Button, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useProject, useSearch } from '../../storage/queries';
import type { ComparePick } from '../hooks/use-compare';
import classes from './review.module.css';

/**
 * B from another project: find a project among those the user can see by name, then pick one of
 * its processed versions. The server checks again that the user may see it when it is streamed
 * and compared.
 */
export function ReferencePicker({
  opened,
  currentVersionId,
  onClose,
  onPick,
}: {
  opened: boolean;
  currentVersionId: string;
  onClose: () => void;
  onPick: (pick: ComparePick) => void;
}) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const [projectId, setProjectId] = useState<string | null>(null);
  const search = useSearch(debounced);
  const project = useProject(projectId);
  const projects = (search.data?.items ?? []).filter((item) => item.kind === 'project');
  const versions = (project.data?.versions ?? []).filter(
    (v) => v.status === 'ready' && v.durationSeconds && v.id !== currentVersionId,
  );
  const close = () => {
    setProjectId(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Compare with a reference track" centered>
      {projectId ? (
        <Stack gap="xs">
          <Group gap={6}>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconArrowLeft size={14} />}
              onClick={() => setProjectId(null)}
            >
              Projects
            </Button>
            <Text fw={600} truncate>
              {project.data?.project.name}
            </Text>
          </Group>
          {project.isLoading ? (
            <Loader size="sm" color="violet" />
          ) : versions.length === 0 ? (
            <Text c="dimmed" size="sm">
              This project has no other processed version to compare with.
            </Text>
          ) : (
            versions.map((v) => (
              <UnstyledButton
                key={v.id}
                className={classes.pickRow}
                onClick={() => {
                  onPick({ id: v.id, projectId: v.projectId });
                  close();
                }}
              >
                <Text size="sm">
                  v{v.number} · {v.name}
                </Text>
              </UnstyledButton>
            ))
          )}
        </Stack>
      ) : (
        <Stack gap="xs">
          <TextInput
            data-autofocus
            leftSection={<IconSearch size={14} />}
            aria-label="Find a project"
            placeholder="Find a project by name"
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
          />
          <ScrollArea.Autosize mah={320}>
            <Stack gap={2}>
              {debounced && !search.isFetching && projects.length === 0 && (
                <Text c="dimmed" size="sm" py="sm">
                  No project you can see matches “{debounced}”.
                </Text>
              )}
              {projects.map((item) => (
                <UnstyledButton key={item.id} className={classes.pickRow} onClick={() => setProjectId(item.id)}>
                  <Text size="sm" fw={600} truncate>
                    {item.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {item.parentName ? `in ${item.parentName}` : 'at the root'}
                  </Text>
                </UnstyledButton>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Modal>
  );
}
