import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBrandDropbox, IconBrandGoogleDrive, IconBucket, IconCloud, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import type { ConnectorKind } from '@mixroom/contracts';
import { notify } from '../../../lib/notify';
import { CONNECTOR_LABELS, isOAuthKind, useConnectors, useStartOAuthLink, useUnlinkConnector } from '../queries';
import { LinkConnectorDialog } from './link-connector-dialog';
import { useOAuthReturn } from './use-oauth-return';

const ICONS: Record<ConnectorKind, typeof IconCloud> = {
  webdav: IconCloud,
  s3: IconBucket,
  dropbox: IconBrandDropbox,
  gdrive: IconBrandGoogleDrive,
};

/** Settings: Link / Unlink per connector the operator enabled, with the linked account's name. */
export function ConnectorsCard() {
  const connectors = useConnectors();
  const unlink = useUnlinkConnector();
  const startOAuth = useStartOAuthLink();
  const returned = useOAuthReturn();
  const [linking, setLinking] = useState<'webdav' | 's3' | null>(null);
  const data = connectors.data;
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      <Group gap="xs" mb="xs">
        <IconPlugConnected size={20} color="var(--mantine-color-violet-4)" />
        <Text fw={700}>Connected storage</Text>
      </Group>
      {!data ? (
        <Loader size="sm" />
      ) : data.available.length === 0 ? (
        <Text size="sm" c="dimmed">
          No storage connectors are enabled on this server. Its operator can enable Nextcloud / WebDAV, S3 buckets,
          Dropbox and Google Drive.
        </Text>
      ) : (
        <Stack gap="sm">
          {returned.status === 'pending' && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">Finishing the link…</Text>
            </Group>
          )}
          {returned.status === 'error' && (
            <Alert color="red" title="Nothing was linked" withCloseButton onClose={returned.dismiss}>
              {returned.message}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            Pick files from these accounts when you create a project or a version; Mixroom copies them on the server.
          </Text>
          {data.available.map((kind) => {
            const linked = data.linked.find((c) => c.kind === kind);
            const Icon = ICONS[kind];
            return (
              <Group key={kind} justify="space-between" wrap="nowrap" gap="sm" data-testid={`connector-${kind}`}>
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Icon size={22} style={{ flexShrink: 0 }} />
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600}>
                      {CONNECTOR_LABELS[kind]}
                    </Text>
                    <Text size="xs" c="dimmed" truncate title={linked?.accountName}>
                      {linked ? linked.accountName : 'Not linked'}
                    </Text>
                  </Stack>
                </Group>
                {linked ? (
                  <Button
                    size="xs"
                    variant="default"
                    loading={unlink.isPending && unlink.variables === linked.id}
                    onClick={() =>
                      modals.openConfirmModal({
                        title: `Unlink ${CONNECTOR_LABELS[kind]}`,
                        children: isOAuthKind(kind)
                          ? `Mixroom asks ${CONNECTOR_LABELS[kind]} to revoke its access to ${linked.accountName} and forgets it. Files already copied stay in Mixroom.`
                          : `Mixroom forgets the credentials of ${linked.accountName}. Files already copied stay in Mixroom.`,
                        labels: { confirm: 'Unlink', cancel: 'Cancel' },
                        confirmProps: { color: 'red' },
                        onConfirm: () =>
                          unlink.mutate(linked.id, {
                            onSuccess: ({ providerRevoked }) => {
                              // The tokens are erased here either way; say when the provider was not told.
                              if (providerRevoked === false)
                                notify(
                                  'warning',
                                  `${CONNECTOR_LABELS[kind]} unlinked`,
                                  `Mixroom erased its access, but ${CONNECTOR_LABELS[kind]} could not be asked to revoke it. Remove Mixroom from the connected apps in your ${CONNECTOR_LABELS[kind]} account settings.`,
                                  { sticky: true },
                                );
                            },
                          }),
                      })
                    }
                  >
                    Unlink
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    loading={startOAuth.isPending && startOAuth.variables === kind}
                    onClick={() => (isOAuthKind(kind) ? startOAuth.mutate(kind) : setLinking(kind))}
                  >
                    Link
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
      <LinkConnectorDialog kind={linking} onClose={() => setLinking(null)} />
    </Card>
  );
}
