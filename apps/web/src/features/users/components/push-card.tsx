import { Button, Card, Group, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { disablePush, enablePush, pushEnabled, pushSupported } from '../../../lib/push';
import { notify } from '../../../lib/notify';

/** Join requests and approvals as system notifications on this device (Web Push). */
export function PushCard() {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void pushEnabled().then(setEnabled);
  }, []);
  const supported = pushSupported();
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" wrap="wrap">
        <Group wrap="nowrap">
          <IconBellRinging size={28} color="var(--mantine-color-violet-4)" />
          <div>
            <Text fw={700}>Notifications on this device</Text>
            <Text size="sm" c="dimmed">
              {supported
                ? 'Join requests and answers arrive even when Mixroom is closed.'
                : 'This browser does not support push notifications.'}
            </Text>
          </div>
        </Group>
        {supported && (
          <Button
            variant={enabled ? 'default' : 'filled'}
            loading={busy || enabled === null}
            onClick={() => {
              setBusy(true);
              (enabled
                ? disablePush().then(() => setEnabled(false))
                : enablePush().then((result) => {
                    if (result === 'denied')
                      notify(
                        'warning',
                        'Notifications',
                        'Notifications are blocked for Mixroom in this browser’s settings.',
                      );
                    setEnabled(result === 'enabled');
                  })
              )
                .catch(() => notify('error', 'Oops', 'Notifications could not be changed on this device.'))
                .finally(() => setBusy(false));
            }}
          >
            {enabled ? 'Turn off' : 'Turn on'}
          </Button>
        )}
      </Group>
    </Card>
  );
}
