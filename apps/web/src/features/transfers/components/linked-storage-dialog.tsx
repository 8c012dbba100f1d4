import { ActionIcon, Box, Button, Group, Modal, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import { IconLink, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { Connector } from '@mixroom/contracts';
import { formatBytes } from '../../../lib/format/format';
import { CONNECTOR_LABELS } from '../../connectors/queries';
import { sameLinked, type LinkedBrowser, type LinkedEntry, type LinkedPick } from '../linked-pick';
import { TRANSFER_TEXTS } from '../transfer-rules';

/**
 * "From linked storage": the cloud browser of each linked account; every file clicked joins the
 * list below and stays highlighted in the browser (clicked again, it leaves), and Add puts them all
 * in the transfer. Nothing is read
 * here: the server copies the files when the transfer is sent.
 */
export function LinkedStorageDialog({
  opened,
  connectors,
  browser: Browser,
  onClose,
  onAdd,
}: {
  opened: boolean;
  connectors: Connector[];
  browser: LinkedBrowser;
  onClose: () => void;
  onAdd: (picked: LinkedPick[]) => void;
}) {
  const [tab, setTab] = useState<string | null>(null);
  const [chosen, setChosen] = useState<LinkedPick[]>([]);
  const close = () => {
    setChosen([]);
    onClose();
  };
  const toggle = (picked: LinkedEntry, connector: Connector) => {
    const pick: LinkedPick = { ...picked, accountName: connector.accountName };
    const present = chosen.some((c) => sameLinked(c, pick));
    setChosen(present ? chosen.filter((c) => !sameLinked(c, pick)) : [...chosen, pick]);
  };
  const total = chosen.reduce((sum, c) => sum + c.size, 0);
  return (
    <Modal opened={opened} onClose={close} title={TRANSFER_TEXTS.fromLinked} size="lg">
      <Stack gap="sm">
        <Tabs value={tab ?? connectors[0]?.id ?? null} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            {connectors.map((c) => (
              <Tabs.Tab key={c.id} value={c.id}>
                {CONNECTOR_LABELS[c.kind]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {connectors.map((c) => (
            <Tabs.Panel key={c.id} value={c.id} pt="sm">
              <Browser
                connector={c}
                chosen={chosen.filter((pick) => pick.connectorId === c.id)}
                onPick={(picked) => toggle(picked, c)}
              />
            </Tabs.Panel>
          ))}
        </Tabs>
        {chosen.length > 0 && (
          <ScrollArea.Autosize mah={140} type="auto" offsetScrollbars>
            <Stack gap={4} data-testid="linked-chosen">
              {chosen.map((c) => (
                <Group key={`${c.connectorId}:${c.path}`} gap="xs" wrap="nowrap">
                  <IconLink size={14} style={{ flexShrink: 0 }} />
                  <Text size="sm" truncate="end" style={{ minWidth: 0, flex: 1 }} title={c.path}>
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {formatBytes(c.size)}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label={`Leave out ${c.name}`}
                    onClick={() => setChosen(chosen.filter((other) => !sameLinked(other, c)))}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Box>
            <Text size="sm" c="dimmed">
              {chosen.length === 0
                ? 'Click files to choose them.'
                : `${chosen.length} ${chosen.length === 1 ? 'file' : 'files'} · ${formatBytes(total)}`}
            </Text>
          </Box>
          <Group gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              disabled={chosen.length === 0}
              onClick={() => {
                onAdd(chosen);
                close();
              }}
            >
              Add to transfer
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
