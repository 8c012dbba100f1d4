import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Collapse,
  Divider,
  Group,
  Menu,
  Progress,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconDownload, IconLibraryPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { TASK_STATUS_COLORS } from '@mixroom/shared';
import { formatDate } from '../../../lib/format/format';
import { useTaskPreviews } from '../queries';
import { engineLabel, failureText, figure, taskProgress, type Task } from '../tools-rules';
import { OutputPreview } from './output-preview';
import { RunningPreview } from './running-preview';

const SESSION_LABELS = { STEMSEPARATION: 'Stem separation', VC: 'Voice conversion', VST: 'Effects' } as const;

/**
 * One task of the history: name, status badge, live progress, figures, the engine of each stage,
 * the failure in the spec's words, and once it has outputs, a player per output with its download.
 */
export function TaskCard({
  task,
  onDownloadAll,
  onDownloadOne,
  onDelete,
  onSave,
}: {
  task: Task;
  /** Present when the task came from a library version the user may add to. */
  onSave?: (as: 'attachments' | 'projects') => void;
  onDownloadAll: () => void;
  onDownloadOne: (kind: Task['outputs'][number]['kind']) => void;
  onDelete: () => void;
}) {
  // Outputs show once the task completes, unless the user folded them.
  const [folded, setFolded] = useState<boolean | null>(null);
  const open = folded === null ? task.status === 'COMPLETED' : !folded;
  const previews = useTaskPreviews(task.id, open ? task.outputs.length : 0);
  const progress = taskProgress(task);
  const failure = failureText(task);
  const active = task.status === 'PENDING' || task.status === 'RUNNING';
  const previewing = task.sessions.find((s) => s.status === 'RUNNING' && s.preview);
  const engines = [...new Set(task.sessions.flatMap((s) => (s.engine ? [engineLabel(s.engine)] : [])))];

  return (
    <Card withBorder radius="md" padding="md" data-testid="tools-task" data-status={task.status}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="tools-task-name">
              {task.name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDate(task.creationDate)} · input {figure(task.figures.inputDurationSeconds)} · processing{' '}
              {figure(task.figures.processingSeconds)}
              {task.creditsCharged > 0 ? ` · ${task.creditsCharged} credits` : ''}
            </Text>
          </Stack>
          <Badge
            color={TASK_STATUS_COLORS[task.status]}
            variant="filled"
            data-testid="tools-task-status"
            style={{ flexShrink: 0, overflow: 'visible' }}
          >
            {task.status}
          </Badge>
        </Group>

        {active && (
          <Stack gap={4}>
            <Progress
              value={progress ?? 0}
              animated={task.status === 'RUNNING'}
              striped={progress === null}
              color={TASK_STATUS_COLORS[task.status]}
              aria-label="Task progress"
              data-testid="tools-task-progress"
            />
            <Text size="xs" c="dimmed">
              {task.sessions
                .map(
                  (s) =>
                    `${SESSION_LABELS[s.type]}: ${s.progress < 0 ? s.status.toLowerCase() : `${Math.round(s.progress)}%`}`,
                )
                .join(' · ')}
            </Text>
          </Stack>
        )}

        {previewing?.preview && <RunningPreview taskId={task.id} seconds={previewing.preview.seconds} />}

        {failure && (
          <Text size="sm" c="red.4" data-testid="tools-task-failure">
            {failure}
          </Text>
        )}

        {engines.length > 0 && (
          <Text size="xs" c="dimmed">
            Engine: {engines.join(' · ')}
          </Text>
        )}

        <Group justify="space-between" wrap="wrap" gap="xs">
          {task.outputs.length > 0 ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setFolded(open)}
              rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            >
              {task.outputs.length} {task.outputs.length === 1 ? 'output' : 'outputs'}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            {onSave && task.capabilities.canSaveToLibrary && task.status === 'COMPLETED' && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button size="compact-sm" variant="light" leftSection={<IconLibraryPlus size={14} />}>
                    Save to library
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => onSave('attachments')}>As attachments of the version</Menu.Item>
                  <Menu.Item onClick={() => onSave('projects')}>As new projects beside it</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
            {task.capabilities.canDownload && task.outputs.length > 0 && (
              <Button
                size="compact-sm"
                leftSection={<IconDownload size={14} />}
                onClick={onDownloadAll}
                data-testid="tools-task-download"
              >
                Download
              </Button>
            )}
            {task.capabilities.canDelete && (
              <Tooltip label="Delete">
                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${task.name}`} onClick={onDelete}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>

        <Collapse in={open && task.outputs.length > 0}>
          <Stack gap="md" pt="xs">
            <Divider />
            {previews.isLoading && <Text size="sm">Loading the outputs…</Text>}
            {(previews.data ?? []).map((preview) => (
              <OutputPreview key={preview.kind} preview={preview} onDownload={() => onDownloadOne(preview.kind)} />
            ))}
          </Stack>
        </Collapse>
      </Stack>
    </Card>
  );
}
