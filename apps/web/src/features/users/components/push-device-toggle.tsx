import { Button, Group, Text } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { disablePush, enablePush, pushEnabled, pushSupported } from '../../../lib/push';
import { notify } from '../../../lib/notify';

/**
 * Whether this browser receives push notifications (Web Push). The account's Push preference says
 * whether pushes are sent at all; this says whether this device is one they reach, so it sits
 * under that preference rather than in a card of its own.
 */
export function PushDeviceToggle() {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void pushEnabled().then(setEnabled);
  }, []);
  const supported = pushSupported();
  const toggle = () => {
    setBusy(true);
    (enabled
      ? disablePush().then(() => setEnabled(false))
      : enablePush().then((result) => {
          if (result === 'denied')
            notify('warning', 'Notifications', 'Notifications are blocked for Mixroom in this browser’s settings.');
          setEnabled(result === 'enabled');
        })
    )
      .catch(() => notify('error', 'Oops', 'Notifications could not be changed on this device.'))
      .finally(() => setBusy(false));
  };
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 180px' }}>
        <IconDeviceDesktop size={16} style={{ flexShrink: 0 }} color="var(--mantine-color-dimmed)" />
        <Text size="xs" c="dimmed">
          {!supported
            ? 'This browser does not support push notifications.'
            : enabled
              ? 'This device receives them, even with Mixroom closed.'
              : 'This device does not receive them yet.'}
        </Text>
      </Group>
      {supported && (
        <Button
          size="compact-xs"
          variant={enabled ? 'default' : 'light'}
          loading={busy || enabled === null}
          onClick={toggle}
        >
          {enabled ? 'Turn off here' : 'Turn on here'}
        </Button>
      )}
    </Group>
  );
}
