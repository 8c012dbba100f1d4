import { Button, Center, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { TaskCard } from '../features/tools/components/task-card';
import { useTaskActions } from '../features/tools/hooks/use-task-actions';
import { useTasks } from '../features/tools/queries';

/** /tools/history (My Tasks): the user's AI tasks, newest first, with a name search and live progress. */
export function ToolsHistoryPage() {
  const [query, setQuery] = useState('');
  const [q] = useDebouncedValue(query.trim(), 250);
  const tasks = useTasks(q);
  const { download, confirmDelete, save } = useTaskActions();
  const items = tasks.data ?? [];

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2}>My Tasks</Title>
        <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 auto', justifyContent: 'flex-end' }}>
          <TextInput
            placeholder="Search tasks"
            aria-label="Search tasks"
            leftSection={<IconSearch size={16} />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <Button component={Link} to="/tools" variant="light" leftSection={<IconWand size={16} />} visibleFrom="sm">
            Tools
          </Button>
        </Group>
      </Group>
      {tasks.isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : items.length === 0 ? (
        <Stack align="center" gap="sm" py="xl" data-testid="tools-empty">
          <Text c="dimmed">{q ? 'No task matches your search.' : 'No tasks yet.'}</Text>
          {!q && (
            <Group gap="sm">
              <Button component={Link} to="/tools/stemseparation" variant="light">
                Stem Separation
              </Button>
              <Button component={Link} to="/tools/revoice" variant="light">
                Voice Conversion
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Stack gap="sm" data-testid="tools-tasks">
          {items.map((task) => (
            <TaskCard
              key={task.id}
              task={task}
              onDownloadAll={() => void download(task)}
              onDownloadOne={(kind) => void download(task, kind)}
              onDelete={() => confirmDelete(task)}
              onSave={(as) => void save(task, as)}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
