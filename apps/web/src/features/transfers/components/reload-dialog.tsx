import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DurationSelect } from './duration-select';

/** Makes an expired transfer available again for a chosen duration (plans with reload). */
export function ReloadDialog({
  name,
  durations,
  saving,
  onClose,
  onReload,
}: {
  name: string | null;
  durations: number[];
  saving: boolean;
  onClose: () => void;
  onReload: (durationDays: number) => void;
}) {
  const [days, setDays] = useState(durations[0] ?? 3);
  return (
    <Modal opened={name !== null} onClose={onClose} title="Reload transfer" centered>
      <Stack>
        <Text size="sm">“{name}” becomes available again at the same link, for the duration you choose.</Text>
        <DurationSelect value={days} enabled={durations} onChange={setDays} lockedSelectable={false} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={saving} onClick={() => onReload(days)}>
            Reload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
