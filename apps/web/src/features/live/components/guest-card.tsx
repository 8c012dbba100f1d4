import { Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { LIVE_MESSAGES } from '@mixroom/shared';
import { useState } from 'react';
import { notify } from '../../../lib/notify';

/** Guest: a room code and JOIN; a blank code is refused before anything is asked. */
export function GuestCard({ onJoin }: { onJoin: (code: string) => void }) {
  const [code, setCode] = useState('');
  const join = () => {
    const trimmed = code.trim();
    if (!trimmed) return notify('warning', LIVE_MESSAGES.emptyCodeTitle, LIVE_MESSAGES.emptyCode);
    onJoin(trimmed.toLowerCase());
  };
  return (
    <Card withBorder padding="lg" radius="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          join();
        }}
      >
        <Stack gap="md">
          <div>
            <Title order={3}>Guest</Title>
            <Text size="sm" c="dimmed">
              Enter the room code your host gave you.
            </Text>
          </div>
          <TextInput
            label="Enter room code"
            placeholder="e.g. 7k2mqx9d4r"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            autoComplete="off"
          />
          <Button type="submit" leftSection={<IconLogin2 size={16} />} style={{ alignSelf: 'flex-start' }}>
            JOIN
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
