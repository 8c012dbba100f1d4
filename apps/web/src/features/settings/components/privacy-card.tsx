import { Button, Card, Group, Progress, Stack, Switch, Text } from '@mantine/core';
import type { Me, NotificationPreferences } from '@mixroom/contracts';
import { IconDownload, IconShieldLock } from '@tabler/icons-react';
import { formatBytes, formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { setNotifications, startExport } from '../api';
import { useAccountMutation, useMyExports } from '../queries';
import type { ReactNode } from 'react';

const CHANNELS: { key: keyof NotificationPreferences; label: string; hint: string }[] = [
  { key: 'email', label: 'E-mail', hint: 'Invitations and notices about shared items, by e-mail.' },
  { key: 'push', label: 'Push', hint: 'Join requests and answers on devices where push is on.' },
  { key: 'inApp', label: 'In-app', hint: 'Pop-up notices while Mixroom is open.' },
];

/**
 * Privacy: which channels notifications use, and an archive of everything I keep here.
 * `pushDevice` is the control for this browser's own push subscription, shown under the Push
 * preference it depends on.
 */
export function PrivacyCard({ me, pushDevice }: { me: Me; pushDevice?: ReactNode }) {
  const save = useAccountMutation(setNotifications);
  const prefs = save.variables && save.isPending ? save.variables : me.notifications;
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      <Group gap="xs" mb="xs">
        <IconShieldLock size={20} color="var(--mantine-color-violet-4)" />
        <Text fw={700}>Privacy</Text>
      </Group>
      <Text size="sm" fw={600} mb={4}>
        Notifications
      </Text>
      <Stack gap="xs">
        {CHANNELS.map((channel) => (
          <Stack key={channel.key} gap={6}>
            <Switch
              label={channel.label}
              description={channel.hint}
              checked={prefs[channel.key]}
              onChange={(event) =>
                save.mutate(
                  { ...prefs, [channel.key]: event.currentTarget.checked },
                  { onError: (error) => notify('error', 'Notifications', error.message) },
                )
              }
            />
            {channel.key === 'push' && prefs.push && pushDevice && <div style={{ paddingLeft: 50 }}>{pushDevice}</div>}
          </Stack>
        ))}
      </Stack>
      <DataExport />
    </Card>
  );
}

function DataExport() {
  const exports = useMyExports();
  const start = useAccountMutation(startExport);
  const latest = exports.data?.exports[0];
  const running = latest && (latest.status === 'queued' || latest.status === 'running');
  return (
    <Stack gap={6} mt="lg">
      <Text size="sm" fw={600}>
        Download my data
      </Text>
      <Text size="sm" c="dimmed">
        A ZIP of your projects with their files and notes, your comments and your account details. We e-mail you a link
        when it is ready; it works for 7 days.
      </Text>
      {running && (
        <>
          <Progress value={Math.max(3, latest.progress)} animated aria-label="Archive progress" />
          <Text size="xs" c="dimmed">
            Preparing your archive… {latest.progress}%
          </Text>
        </>
      )}
      {latest?.status === 'failed' && (
        <Text size="xs" c="red.4">
          The last archive could not be made. Please try again.
        </Text>
      )}
      <Group gap="xs">
        <Button
          variant="light"
          loading={start.isPending}
          disabled={Boolean(running)}
          onClick={() =>
            start.mutate(undefined, {
              onSuccess: () => void exports.refetch(),
              onError: (error) => notify('error', 'Download my data', error.message),
            })
          }
        >
          {latest ? 'Make a new archive' : 'Prepare my archive'}
        </Button>
        {latest?.downloadUrl && (
          <Button component="a" href={latest.downloadUrl} leftSection={<IconDownload size={16} />}>
            Download ({formatBytes(latest.sizeBytes ?? 0)})
          </Button>
        )}
      </Group>
      {latest?.downloadUrl && latest.expiresAt && (
        <Text size="xs" c="dimmed">
          Made {formatDate(latest.createdAt)}, available until {formatDate(latest.expiresAt)}.
        </Text>
      )}
    </Stack>
  );
}
