import { Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBucket, IconCloud, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import type { ConnectorKind } from '@mixroom/contracts';
import { CONNECTOR_LABELS, useConnectors, useUnlinkConnector } from '../queries';
import { LinkConnectorDialog } from './link-connector-dialog';

const ICONS: Record<ConnectorKind, typeof IconCloud> = { webdav: IconCloud, s3: IconBucket };

/** Settings: Link / Unlink per connector the operator enabled, with the linked account's name. */
export function ConnectorsCard() {
  const connectors = useConnectors();
  const unlink = useUnlinkConnector();
  const [linking, setLinking] = useState<ConnectorKind | null>(null);
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
          No storage connectors are enabled on this server. Its operator can enable Nextcloud / WebDAV and S3 buckets.
        </Text>
      ) : (
        <Stack gap="sm">
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
                        children: `Mixroom forgets the credentials of ${linked.accountName}. Files already copied stay in Mixroom.`,
                        labels: { confirm: 'Unlink', cancel: 'Cancel' },
                        confirmProps: { color: 'red' },
                        onConfirm: () => unlink.mutate(linked.id),
                      })
                    }
                  >
                    Unlink
                  </Button>
                ) : (
                  <Button size="xs" onClick={() => setLinking(kind)}>
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
