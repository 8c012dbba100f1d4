import { Button, Group, Loader, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { isToolsExtension } from '@mixroom/shared';
import { useListing, useProject, useSearch } from '../../storage/queries';
import type { ToolInput } from '../tool-input';

const ROOT_FILTERS = { sort: 'newest', owner: 'all', kind: 'all' } as const;

/** One project's versions the user may download and the tools take; picking one selects it. */
function ProjectVersions({ projectId, onPick }: { projectId: string; onPick: (input: ToolInput) => void }) {
  const project = useProject(projectId);
  if (project.isLoading) return <Loader size="xs" />;
  const data = project.data;
  if (!data) return null;
  if (!data.project.capabilities.canDownload)
    return (
      <Text size="xs" c="dimmed">
        You may not download this project.
      </Text>
    );
  const usable = data.versions.filter((v) => v.status === 'ready' && isToolsExtension(v.fileName));
  if (usable.length === 0)
    return (
      <Text size="xs" c="dimmed">
        No version in a format the tools take.
      </Text>
    );
  return (
    <Group gap="xs">
      {usable.map((v) => (
        <Button
          key={v.id}
          size="compact-xs"
          variant="light"
          onClick={() =>
            onPick({
              kind: 'version',
              versionId: v.id,
              name: `${data.project.name} — v${v.number} ${v.fileName}`,
              projectId,
              durationSeconds: v.durationSeconds,
            })
          }
        >
          v{v.number} · {v.name}
        </Button>
      ))}
    </Group>
  );
}

/** "From my library": a search over the library's projects (the newest at the top level by default). */
export function LibraryPicker({ onPick }: { onPick: (input: ToolInput) => void }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const [open, setOpen] = useState<string | null>(null);
  const search = useSearch(debounced);
  const root = useListing(null, ROOT_FILTERS);
  const projects = debounced
    ? (search.data?.items ?? []).filter((i) => i.kind === 'project').map((i) => ({ id: i.id, name: i.name }))
    : (root.data?.pages.flatMap((p) => p.items) ?? [])
        .filter((i) => i.kind === 'project')
        .slice(0, 30)
        .map((i) => ({ id: i.id, name: i.name }));

  return (
    <Stack gap="xs" data-testid="tools-library">
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
            <Stack key={p.id} gap={4}>
              <UnstyledButton onClick={() => setOpen(open === p.id ? null : p.id)} aria-expanded={open === p.id}>
                <Text size="sm" fw={open === p.id ? 600 : 400}>
                  {p.name}
                </Text>
              </UnstyledButton>
              {open === p.id && <ProjectVersions projectId={p.id} onPick={onPick} />}
            </Stack>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
