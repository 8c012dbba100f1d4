import {
  ActionIcon,
  Badge,
  FileButton,
  Group,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useReservedCorner } from '../use-reserved-corner';
import { reviewKeys } from '../../review/queries';
import { storageKeys } from '../../storage/queries';
import { activitiesStore, useActivities, type ActivityState } from '../activities-store';
import { useRestoreUploads } from '../use-upload-orchestrator';

const COLORS: Record<ActivityState, string> = {
  Started: 'gray',
  'In Progress': 'violet',
  Finished: 'teal',
  Error: 'red',
};

/** The bottom sheet of running uploads and downloads: state, percent, a bar, cancel, collapse. */
export function ActivitiesPanel() {
  const activities = useActivities();
  const queryClient = useQueryClient();
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: storageKeys.all });
    void queryClient.invalidateQueries({ queryKey: [...reviewKeys.all, 'attachments'] });
  }, [queryClient]);
  useRestoreUploads(refresh);
  // A finished entry lingers a moment on the page that started it; another page does not inherit it.
  const { pathname } = useLocation();
  useEffect(() => activitiesStore.dropFinished(), [pathname]);
  const [collapsed, setCollapsed] = useState(false);
  const reserve = useReservedCorner('--activities-room');
  if (activities.length === 0) return null;
  const running = activities.filter((a) => a.state === 'Started' || a.state === 'In Progress').length;
  return (
    <Paper
      ref={reserve}
      withBorder
      shadow="xl"
      radius="md"
      role="region"
      aria-label="Activities"
      style={{ position: 'fixed', right: 16, bottom: 16, width: 'min(380px, calc(100vw - 32px))', zIndex: 300 }}
    >
      <UnstyledButton onClick={() => setCollapsed((c) => !c)} w="100%" px="md" py="xs" aria-expanded={!collapsed}>
        <Group justify="space-between">
          <Text fw={600} size="sm">
            Activities {running > 0 ? `(${running} running)` : ''}
          </Text>
          {collapsed ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        </Group>
      </UnstyledButton>
      {!collapsed && (
        <ScrollArea.Autosize mah={300} px="md" pb="sm">
          <Stack gap="sm">
            {activities.map((activity) => (
              <div key={activity.id} data-testid="activity">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" truncate="end" style={{ flex: 1 }} title={activity.name}>
                    {activity.name}
                  </Text>
                  <Badge size="xs" variant="light" color={COLORS[activity.state]}>
                    {activity.state}
                  </Badge>
                  <Text size="xs" c="dimmed" w={36} ta="right">
                    {activity.percent}%
                  </Text>
                  {activity.resume && (
                    <FileButton onChange={(file) => file && activity.resume?.(file)}>
                      {(props) => (
                        <Tooltip label="Resume">
                          <ActionIcon {...props} size="sm" variant="subtle" aria-label={`Resume ${activity.name}`}>
                            <IconPlayerPlay size={14} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </FileButton>
                  )}
                  {activity.cancel ? (
                    <Tooltip label="Cancel">
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Cancel ${activity.name}`}
                        onClick={activity.cancel}
                      >
                        <IconX size={14} />
                      </ActionIcon>
                    </Tooltip>
                  ) : (
                    activity.state === 'Error' && (
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        aria-label="Dismiss"
                        onClick={() => activitiesStore.remove(activity.id)}
                      >
                        <IconX size={14} />
                      </ActionIcon>
                    )
                  )}
                </Group>
                <Progress
                  value={activity.percent}
                  size="sm"
                  color={COLORS[activity.state]}
                  mt={4}
                  animated={activity.state === 'In Progress'}
                />
                {activity.error && (
                  <Text size="xs" c="red" mt={2}>
                    {activity.error}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
