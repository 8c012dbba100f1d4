import { ActionIcon, Button, Center, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconSearch, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ReloadDialog } from '../features/transfers/components/reload-dialog';
import { TransferTile } from '../features/transfers/components/transfer-tile';
import { useDeleteTransfer, useReloadTransfer, useTransfers } from '../features/transfers/queries';
import { useMe } from '../features/users/queries';
import { notify } from '../lib/notify';
import { matchesTransferSearch, TRANSFER_TEXTS } from '../features/transfers/transfer-rules';

/** /transfer/history: the user's transfers, newest first, with a search on name and recipients. */
export function TransferHistoryPage() {
  const transfers = useTransfers();
  const remove = useDeleteTransfer();
  const reload = useReloadTransfer();
  const durations = useMe().data?.limits.transferDurationDays ?? [];
  const [reloading, setReloading] = useState<{ id: string; name: string } | null>(null);
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const all = transfers.data ?? [];
  const shown = all.filter((t) => matchesTransferSearch(t, query));

  const confirmDelete = (transfer: { id: string; name: string }) =>
    modals.openConfirmModal({
      title: 'Delete transfer',
      centered: true,
      children: TRANSFER_TEXTS.deleteConfirm(transfer.name),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(transfer.id),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2}>My Transfers</Title>
        <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 auto', justifyContent: 'flex-end' }}>
          <TextInput
            placeholder="Search by name or e-mail"
            aria-label="Search transfers"
            leftSection={<IconSearch size={16} />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <Button component={Link} to="/transfer" leftSection={<IconSend size={16} />} visibleFrom="sm">
            New transfer
          </Button>
          {/* On a phone the search takes the row: the same action as an icon beside it. */}
          <ActionIcon
            component={Link}
            to="/transfer"
            size={36}
            variant="filled"
            aria-label="New transfer"
            hiddenFrom="sm"
          >
            <IconSend size={18} />
          </ActionIcon>
        </Group>
      </Group>
      {transfers.isPending ? (
        <Center mih="40vh">
          <Loader color="violet" />
        </Center>
      ) : all.length === 0 ? (
        <Center mih="40vh">
          <Stack align="center" gap="xs" ta="center">
            <IconSend size={44} stroke={1.3} color="var(--mantine-color-violet-4)" />
            <Title order={3}>No transfers yet</Title>
            <Text c="dimmed" maw={420}>
              Send files and folders with a link that expires. The transfers you send show here, with who downloaded
              what.
            </Text>
            <Button component={Link} to="/transfer" mt="sm">
              New transfer
            </Button>
          </Stack>
        </Center>
      ) : shown.length === 0 ? (
        <Text c="dimmed">No transfer matches “{query.trim()}”.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {shown.map((transfer) => (
            <TransferTile
              key={transfer.id}
              transfer={transfer}
              onOpen={() => void navigate(`/transfer/history/${transfer.id}`)}
              onDelete={() => confirmDelete(transfer)}
              onReload={() => setReloading(transfer)}
            />
          ))}
        </SimpleGrid>
      )}
      <ReloadDialog
        name={reloading?.name ?? null}
        durations={durations}
        saving={reload.isPending}
        onClose={() => setReloading(null)}
        onReload={(durationDays) =>
          reloading &&
          reload.mutate(
            { id: reloading.id, durationDays },
            {
              onSuccess: () => {
                notify('success', 'Transfer', 'Transfer reloaded');
                setReloading(null);
              },
            },
          )
        }
      />
    </Stack>
  );
}
