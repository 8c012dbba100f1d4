import {
  Badge,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconInbox, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import type { FileRequest } from '@mixroom/contracts';
import { formatTransferSize } from '@mixroom/shared';
import { CopyLinkField, copyTransferLink } from '../features/transfers/components/copy-link-field';
import { useCreateFileRequest, useFileRequests, useRevokeFileRequest } from '../features/transfers/queries';
import { formatDate } from '../lib/format/format';

const BYTES_PER_GB = 1_000_000_000;

/**
 * /transfer/requests: links through which people without an account send files to the user. What
 * they send arrives as a transfer in the user's history, and the user is mailed.
 */
export function FileRequestsPage() {
  const requests = useFileRequests();
  const all = requests.data ?? [];
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>File requests</Title>
        <Text c="dimmed" size="sm" maw={640}>
          Ask anyone for files with a link: they upload without an account, and what they send shows in My Transfers.
        </Text>
      </div>
      <NewRequestCard />
      {requests.isPending ? (
        <Center mih="20vh">
          <Loader color="violet" />
        </Center>
      ) : all.length === 0 ? (
        <Center mih="20vh">
          <Stack align="center" gap="xs" ta="center">
            <IconInbox size={44} stroke={1.3} color="var(--mantine-color-violet-4)" />
            <Title order={3}>No request links yet</Title>
            <Text c="dimmed" maw={420}>
              Create one above and send it to the artist, the session player or the client who has the files.
            </Text>
          </Stack>
        </Center>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {all.map((request) => (
            <RequestCard key={request.id} request={request} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function NewRequestCard() {
  const create = useCreateFileRequest();
  const [message, setMessage] = useState('');
  const [limitGb, setLimitGb] = useState<number | ''>('');
  const submit = () =>
    create.mutate(
      { message, maxBytes: limitGb === '' ? null : Math.round(limitGb * BYTES_PER_GB) },
      {
        onSuccess: (request) => {
          setMessage('');
          setLimitGb('');
          void copyTransferLink(request.link);
        },
      },
    );
  return (
    <Paper withBorder radius="lg" p="md" maw={640}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Message"
            description="Shown to whoever opens the link."
            placeholder="Please send the stems of the chorus, 24-bit WAV."
            autosize
            minRows={2}
            maxRows={6}
            maxLength={5000}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
          />
          <NumberInput
            label="Size limit (GB)"
            description="Leave empty for your plan's largest transfer."
            min={0.001}
            decimalScale={3}
            value={limitGb}
            onChange={(value) => setLimitGb(typeof value === 'number' ? value : '')}
            maw={260}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create link
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function RequestCard({ request }: { request: FileRequest }) {
  const revoke = useRevokeFileRequest();
  const confirmRevoke = () =>
    modals.openConfirmModal({
      title: 'Turn the link off',
      centered: true,
      children: 'Nobody will be able to send files through this link any more. What was sent stays in My Transfers.',
      labels: { confirm: 'Turn off', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(request.id),
    });
  return (
    <Paper withBorder radius="lg" p="md" data-testid="file-request">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" c="dimmed">
            Created {formatDate(request.createdAt)} · up to{' '}
            {request.maxBytes === null ? 'your plan’s limit' : formatTransferSize(request.maxBytes)}
          </Text>
          <Badge variant="light" color={request.received > 0 ? 'teal' : 'gray'}>
            {request.received} received
          </Badge>
        </Group>
        <Text lineClamp={3} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {request.message || (
            <Text span c="dimmed">
              No message
            </Text>
          )}
        </Text>
        <CopyLinkField url={request.link} />
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconLinkOff size={16} />}
            loading={revoke.isPending}
            onClick={confirmRevoke}
          >
            Turn off
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
