import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TRANSFER_TEXTS } from '../transfer-rules';

/** An expired, deleted or unknown transfer link. */
export function TransferUnavailable({ home }: { home: string }) {
  return (
    <Paper withBorder radius="lg" p="xl" maw={460} w="100%" mx="auto" mt="10vh" role="alert">
      <Stack align="center" ta="center">
        <IconAlertTriangle size={40} stroke={1.4} color="var(--mantine-color-yellow-5)" />
        <Title order={3}>Warning</Title>
        <Text>{TRANSFER_TEXTS.unavailable}</Text>
        <Button component={Link} to={home} variant="light">
          Go to Mixroom
        </Button>
      </Stack>
    </Paper>
  );
}
