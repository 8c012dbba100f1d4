import { Badge, Button, Card, Group, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { TASK_STATUS_COLORS } from '@mixroom/shared';
import { formatRelative } from '../../../lib/format/format';
import { useCancelToolTask, useToolTasks } from '../queries';

type Session = { status: string; progress: number };

/** 0–100 over all of a task's stages (a finished stage counts whole); null before any stage started. */
function progressOf(sessions: readonly Session[]): number | null {
  let total = 0;
  let started = false;
  for (const s of sessions) {
    if (s.status === 'COMPLETED') total += 100;
    else if (s.progress >= 0) total += Math.min(100, s.progress);
    else continue;
    started = true;
  }
  return started && sessions.length > 0 ? Math.round(total / sessions.length) : null;
}

/**
 * The AI tasks queue for administrators: what runs and waits (or what failed), oldest first, with
 * each task's user, status, progress and age; a pending or running task can be cancelled (it fails
 * with "Cancelled by an administrator." and nothing is charged). Refreshes every few seconds.
 */
export function ToolTasksCard() {
  const [status, setStatus] = useState<'active' | 'failed'>('active');
  const tasks = useToolTasks(status);
  const cancel = useCancelToolTask();
  const items = tasks.data?.items ?? [];

  const confirmCancel = (task: { id: string; name: string; userEmail: string | null }) =>
    modals.openConfirmModal({
      title: 'Cancel task',
      centered: true,
      children: (
        <Text size="sm">
          Cancel “{task.name}”{task.userEmail ? ` of ${task.userEmail}` : ''}? It fails for its user with “Cancelled by
          an administrator.” and no credits are charged.
        </Text>
      ),
      labels: { confirm: 'Cancel task', cancel: 'Keep running' },
      confirmProps: { color: 'red' },
      onConfirm: () => cancel.mutate({ taskId: task.id, name: task.name }),
    });

  return (
    <Card withBorder radius="lg" padding="md" data-testid="admin-tool-tasks">
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Text fw={700}>AI tasks</Text>
        <SegmentedControl
          size="xs"
          value={status}
          onChange={(value) => setStatus(value as 'active' | 'failed')}
          data={[
            { value: 'active', label: 'Running and pending' },
            { value: 'failed', label: 'Failed' },
          ]}
          aria-label="Which AI tasks"
        />
      </Group>
      {tasks.isLoading ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="admin-tool-tasks-empty">
          {status === 'active' ? 'No AI task is running or waiting.' : 'No failed AI tasks.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Task</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th w={140}>Progress</Table.Th>
                <Table.Th>Created</Table.Th>
                {status === 'active' && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((task) => {
                const progress = task.status === 'COMPLETED' ? 100 : progressOf(task.sessions);
                const failed = task.sessions.find((s) => s.status === 'FAILED')?.message;
                return (
                  <Table.Tr key={task.id} data-testid="admin-tool-task" data-status={task.status}>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="admin-tool-task-name">
                          {task.name}
                        </Text>
                        {failed && (
                          <Text size="xs" c="red.4">
                            {failed}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {task.userEmail ?? task.userId}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={TASK_STATUS_COLORS[task.status]}
                        variant="filled"
                        data-testid="admin-tool-task-status"
                      >
                        {task.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Progress
                          value={progress ?? 0}
                          striped={progress === null}
                          animated={task.status === 'RUNNING'}
                          color={TASK_STATUS_COLORS[task.status]}
                          style={{ flex: 1 }}
                          aria-label={`Progress of ${task.name}`}
                        />
                        <Text size="xs" c="dimmed" w={34} ta="right">
                          {progress === null ? '—' : `${progress}%`}
                        </Text>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" title={new Date(task.creationDate).toLocaleString()}>
                        {formatRelative(task.creationDate)}
                      </Text>
                    </Table.Td>
                    {status === 'active' && (
                      <Table.Td ta="right">
                        <Button
                          size="compact-sm"
                          variant="light"
                          color="red"
                          aria-label={`Cancel ${task.name}`}
                          loading={cancel.isPending && cancel.variables?.taskId === task.id}
                          onClick={() => confirmCancel(task)}
                        >
                          Cancel
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
