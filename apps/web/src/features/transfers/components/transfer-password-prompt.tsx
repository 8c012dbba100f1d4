import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { TRANSFER_TEXTS } from '../transfer-rules';

/** Asks a recipient for the transfer's password; a wrong one asks again, saying why. */
export function TransferPasswordPrompt({
  error,
  checking,
  onSubmit,
}: {
  error: string | null;
  checking: boolean;
  onSubmit: (password: string) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <Paper withBorder radius="lg" p="xl" maw={420} w="100%" mx="auto" mt="10vh">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value) onSubmit(value);
        }}
      >
        <Stack>
          <IconLock size={36} stroke={1.4} color="var(--mantine-color-violet-4)" />
          <Title order={3}>{TRANSFER_TEXTS.passwordRequired}</Title>
          <Text size="sm" c="dimmed">
            Enter the password the sender gave you to open it.
          </Text>
          <PasswordInput
            label="Password"
            autoComplete="off"
            autoFocus
            value={value}
            error={error}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          <Button type="submit" loading={checking} disabled={!value}>
            Open transfer
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
