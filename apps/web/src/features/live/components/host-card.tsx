import { ActionIcon, Anchor, Button, Card, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCopy, IconDownload, IconInfoCircle, IconLink, IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import { LIVE_MESSAGES } from '@mixroom/shared';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { BRIDGE_INSTALLER_URL, guestRoomLink } from '../links';
import { InstructionsDialog } from './instructions-dialog';

interface HostCardProps {
  hostCode: string | null;
  guestCode: string | null;
  liveUrl: string | null;
  regenerating: boolean;
  onStart: () => void;
  onRegenerate: () => void;
}

async function copy(text: string, message: string) {
  await navigator.clipboard.writeText(text).catch(() => undefined);
  notify('success', 'Live', message);
}

/** Host: Start, the room code, a new code, the room link, Instructions and the Installer. */
export function HostCard({ hostCode, guestCode, liveUrl, regenerating, onStart, onRegenerate }: HostCardProps) {
  const [instructions, setInstructions] = useState(false);
  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="md">
        <div>
          <Title order={3}>Host</Title>
          <Text size="sm" c="dimmed">
            Open your room and stream in studio quality. Guests join with the room link.
          </Text>
        </div>
        <TextInput
          label="Your room code"
          readOnly
          value={guestCode ?? ''}
          rightSectionWidth={72}
          rightSection={
            <Group gap={4} wrap="nowrap">
              <Tooltip label="Copy room code">
                <ActionIcon
                  variant="subtle"
                  aria-label="Copy room code"
                  disabled={!guestCode}
                  onClick={() => guestCode && void copy(guestCode, LIVE_MESSAGES.roomCodeCopied)}
                >
                  <IconCopy size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Generate new code">
                <ActionIcon
                  variant="subtle"
                  aria-label="Generate new code"
                  loading={regenerating}
                  onClick={onRegenerate}
                >
                  <IconRefresh size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          }
        />
        <Group gap="sm" wrap="wrap">
          <Button leftSection={<IconPlayerPlay size={16} />} disabled={!hostCode} onClick={onStart}>
            Start
          </Button>
          <Button
            variant="default"
            leftSection={<IconLink size={16} />}
            disabled={!guestCode}
            onClick={() => guestCode && void copy(guestRoomLink(liveUrl, guestCode), LIVE_MESSAGES.roomLinkCopied)}
          >
            Copy room link
          </Button>
        </Group>
        <Group gap="md">
          <Anchor component="button" type="button" size="sm" onClick={() => setInstructions(true)}>
            <Group gap={4} wrap="nowrap">
              <IconInfoCircle size={14} /> Instructions
            </Group>
          </Anchor>
          <Anchor href={BRIDGE_INSTALLER_URL} target="_blank" rel="noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconDownload size={14} /> Installer
            </Group>
          </Anchor>
        </Group>
      </Stack>
      <InstructionsDialog opened={instructions} onClose={() => setInstructions(false)} />
    </Card>
  );
}
