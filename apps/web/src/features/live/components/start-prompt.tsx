import { Button, Group, Modal, Text } from '@mantine/core';
import { LIVE_MESSAGES } from '@mixroom/shared';

/** The first click of a room: browsers start audio only from a user gesture. */
export function StartPrompt({ opened, busy, onOk }: { opened: boolean; busy: boolean; onOk: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title="Live"
    >
      <Text>{LIVE_MESSAGES.startPrompt}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onOk} loading={busy} data-autofocus>
          Ok
        </Button>
      </Group>
    </Modal>
  );
}
