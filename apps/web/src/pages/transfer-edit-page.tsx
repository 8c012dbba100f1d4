import { Anchor, Button, Center, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconDownload, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { CopyLinkField } from '../features/transfers/components/copy-link-field';
import { DownloadLogCard } from '../features/transfers/components/download-log-card';
import { confirmExpireNow } from '../features/transfers/components/expire-now-confirm';
import { ExpiryCard } from '../features/transfers/components/expiry-card';
import { FileListCard } from '../features/transfers/components/file-list-card';
import { PasswordCard } from '../features/transfers/components/password-card';
import { SentToCard } from '../features/transfers/components/sent-to-card';
import { ownerGrant, tokenOfLink, useTransferZip } from '../features/transfers/hooks/use-transfer-zip';
import {
  useDeleteTransfer,
  useExpireTransfer,
  useTransfer,
  useTransferDownloads,
  useUpdateTransfer,
} from '../features/transfers/queries';
import { TRANSFER_TEXTS } from '../features/transfers/transfer-rules';
import { useMe } from '../features/users/queries';
import { formatBytes, formatDate } from '../lib/format/format';
import { notify } from '../lib/notify';

/**
 * /transfer/history/:transferId: one sent transfer. Its link, Download and Delete, the expiry and
 * the password to change, who it went to and who downloaded what, and its files. A transfer that
 * is gone or expired leads back to the history.
 */
export function TransferEditPage() {
  const { transferId = '' } = useParams();
  // Set before Delete or Expire now is sent: the page's own queries stop, so the refresh that follows
  // (and the realtime event) does not read a transfer that is gone and say so a second time.
  const [leaving, setLeaving] = useState(false);
  const transfer = useTransfer(transferId, !leaving);
  const downloads = useTransferDownloads(transferId, transfer.isSuccess && !leaving);
  const update = useUpdateTransfer(transferId);
  const remove = useDeleteTransfer();
  const expire = useExpireTransfer();
  const zip = useTransferZip();
  const me = useMe().data;
  const navigate = useNavigate();
  const data = transfer.data;
  const gone = !leaving && (transfer.isError || data?.status === 'expired');

  useEffect(() => {
    if (gone) notify('warning', 'Warning', TRANSFER_TEXTS.unavailable);
  }, [gone]);

  if (gone) return <Navigate to="/transfer/history" replace />;
  if (!data)
    return (
      <Center mih="50vh">
        <Loader color="violet" />
      </Center>
    );

  const caps = data.capabilities;
  /** Runs the action that ends this page's transfer, then goes to the history; its success toast is the one message. */
  const leaveWith = (action: {
    mutate: (id: string, then: { onSuccess: () => void; onError: () => void }) => void;
  }) => {
    setLeaving(true);
    action.mutate(data.id, {
      onSuccess: () => void navigate('/transfer/history', { replace: true }),
      onError: () => setLeaving(false),
    });
  };
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete transfer',
      centered: true,
      children: TRANSFER_TEXTS.deleteConfirm(data.name),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => leaveWith(remove),
    });

  return (
    <Stack gap="md" maw={1100}>
      <Anchor component={Link} to="/transfer/history" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> My Transfers
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 320px' }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {data.name}
          </Title>
          <Text c="dimmed" size="sm">
            {data.fileCount} {data.fileCount === 1 ? 'file' : 'files'} · {formatBytes(data.size)} · sent{' '}
            {formatDate(data.createdAt)} · expires {formatDate(data.expiresAt)}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            leftSection={<IconDownload size={16} />}
            loading={zip.busy}
            disabled={data.status !== 'available'}
            onClick={() => void zip.run(tokenOfLink(data.link), ownerGrant(data.id), data.size, data.name)}
          >
            Download
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            disabled={!caps.canDelete}
            onClick={confirmDelete}
          >
            Delete
          </Button>
        </Group>
      </Group>
      {zip.percent !== null && zip.percent >= 0 && (
        <Progress value={zip.percent} animated aria-label="Download progress" />
      )}
      <CopyLinkField url={data.link} />
      {data.message && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c="dimmed">
          {data.message}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ExpiryCard
          expiresAt={data.expiresAt}
          range={data.expiryBounds}
          saving={update.isPending || expire.isPending}
          onChange={(expiresAt) =>
            update
              .mutateAsync({ expiresAt: expiresAt.toISOString() })
              .then(() => notify('success', 'Transfer', TRANSFER_TEXTS.expiryUpdated))
          }
          onExpireNow={
            caps.canEdit
              ? () =>
                  confirmExpireNow({
                    name: data.name,
                    recipients: data.recipients.map((r) => r.email),
                    canReload: me?.limits.transferReload ?? false,
                    onConfirm: () => leaveWith(expire),
                  })
              : null
          }
        />
        <PasswordCard
          hasPassword={data.hasPassword}
          allowed={caps.canEdit && (me?.limits.transferPassword ?? false)}
          saving={update.isPending}
          onSave={(password) =>
            update.mutateAsync({ password }).then(() => notify('success', 'Transfer', TRANSFER_TEXTS.passwordUpdated))
          }
        />
        <SentToCard transfer={data} />
        <DownloadLogCard entries={downloads.data} />
      </SimpleGrid>
      <FileListCard
        files={data.files.map((f) => ({
          id: f.id,
          path: f.path ? `${f.path}/${f.fileName}` : f.fileName,
          size: f.size,
        }))}
      />
    </Stack>
  );
}
