import { ActionIcon, Avatar, Button, Group, Indicator, Popover, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import type { JoinRequest } from '@mixroom/contracts';
import { notify } from '../../lib/notify';
import { sharingApi } from '../../features/sharing/api';
import { useJoinRequests, useSharingMutation } from '../../features/sharing/queries';

const TABS = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Accepted' },
  { value: 'rejected', label: 'Rejected' },
] as const;

function RequestRow({ request, incoming }: { request: JoinRequest; incoming: boolean }) {
  const decide = useSharingMutation((decision: 'approve' | 'reject') =>
    sharingApi.decide(request.resourceId, request.user.id, decision),
  );
  const what = request.resourceType === 'group' ? 'folder' : 'project';
  return (
    <Group wrap="nowrap" align="flex-start" gap="sm" data-testid="join-request">
      <Avatar size={32} radius="xl" name={request.user.displayName} src={request.user.photoUrl} color="initials" />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm">
          {incoming ? (
            <>
              <b>{request.user.displayName}</b> asks to join the {what} <b>{request.resourceName}</b>
            </>
          ) : (
            <>
              You asked to join the {what} <b>{request.resourceName}</b>
            </>
          )}
        </Text>
        {incoming && request.status === 'pending' ? (
          <Group gap="xs" mt={6}>
            <Button
              size="xs"
              loading={decide.isPending}
              onClick={() => decide.mutate('approve', { onError: (e) => notify('error', 'Join Request', e.message) })}
            >
              Accept
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={decide.isPending}
              onClick={() => decide.mutate('reject', { onError: (e) => notify('error', 'Join Request', e.message) })}
            >
              Reject
            </Button>
          </Group>
        ) : (
          request.status === 'pending' && (
            <Text size="xs" c="dimmed">
              Waiting for the publisher to answer.
            </Text>
          )
        )}
      </div>
    </Group>
  );
}

/** Join requests to and from the user, live through the realtime channel. */
export function NotificationsBell() {
  const requests = useJoinRequests().data;
  const incomingPending = requests?.incoming.filter((r) => r.status === 'pending').length ?? 0;
  const all = [
    ...(requests?.incoming.map((r) => ({ r, incoming: true })) ?? []),
    ...(requests?.outgoing.map((r) => ({ r, incoming: false })) ?? []),
  ];
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator disabled={incomingPending === 0} label={incomingPending} size={16} color="red" offset={4}>
          <ActionIcon variant="subtle" size="lg" aria-label="Notifications">
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Tabs defaultValue="pending">
          <Tabs.List grow>
            {TABS.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {TABS.map((tab) => {
            const rows = all.filter(({ r }) => r.status === tab.value);
            return (
              <Tabs.Panel key={tab.value} value={tab.value}>
                <ScrollArea.Autosize mah={500}>
                  <Stack p="md" gap="md">
                    {rows.length === 0 ? (
                      <Text c="dimmed" size="sm" ta="center">
                        No Notifications
                      </Text>
                    ) : (
                      rows.map(({ r, incoming }) => (
                        <RequestRow key={`${r.resourceId}-${r.user.id}`} request={r} incoming={incoming} />
                      ))
                    )}
                  </Stack>
                </ScrollArea.Autosize>
              </Tabs.Panel>
            );
          })}
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}
