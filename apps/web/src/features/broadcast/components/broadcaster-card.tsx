import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Code,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCopy, IconDownload, IconInfoCircle, IconKey, IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import { BROADCAST_MESSAGES, LIVE_MESSAGES } from '@mixroom/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { notify } from '../../../lib/notify';
import { useBroadcastSettings, useNewStreamKey, useRegenerateBroadcastCode, type BroadcastRoomView } from '../queries';
import { fromLocalInput, toLocalInput } from '../server-clock';

interface BroadcasterCardProps {
  room: BroadcastRoomView;
  installerUrl: string;
  onStart: () => void;
  onInstructions: () => void;
}

async function copy(text: string, message: string) {
  await navigator.clipboard.writeText(text).catch(() => undefined);
  notify('success', 'Live', message);
}

function CopyButton({ value, label, message }: { value: string; label: string; message: string }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" aria-label={label} onClick={() => void copy(value, message)}>
        <IconCopy size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Broadcaster: the countdown (a date-time from now on; saved only when it changed, cleared to none),
 * the read-only code, START, the public room link, Instructions and the Installer; below, WHIP
 * ingest for other software with a stream key shown once, and the WHEP URL for any player.
 */
export function BroadcasterCard({ room, installerUrl, onStart, onInstructions }: BroadcasterCardProps) {
  const settings = useBroadcastSettings();
  const regenerate = useRegenerateBroadcastCode();
  const newKey = useNewStreamKey();
  const [shownKey, setShownKey] = useState<string | null>(null);

  const saveCountdown = (value: string) => {
    const next = fromLocalInput(value);
    if (next === room.countdownTime) return;
    void settings
      .mutateAsync({ countdownTime: next })
      .then(() => notify('success', 'Live', LIVE_MESSAGES.countdownSet));
  };

  return (
    <Card withBorder padding="lg" radius="md" data-testid="broadcaster-card">
      <Stack gap="md">
        <div>
          <Title order={3}>{BROADCAST_MESSAGES.cardTitle}</Title>
          <Text size="sm" c="dimmed">
            Play a record for everyone at once: listeners open the room link, no account needed.
          </Text>
        </div>
        {!room.ready && (
          <Alert color="yellow" title="Subscription">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{room.blockedMessage ?? LIVE_MESSAGES.broadcastNeedsSubscription}</Text>
              <Button component={Link} to="/settings" size="xs" variant="light">
                Go to settings
              </Button>
            </Stack>
          </Alert>
        )}
        <TextInput
          label="Title"
          placeholder="Live listening session"
          key={`title-${room.title}`}
          defaultValue={room.title}
          maxLength={120}
          onBlur={(event) => {
            const title = event.currentTarget.value.trim();
            if (title !== room.title) settings.mutate({ title });
          }}
        />
        <TextInput
          type="datetime-local"
          label="Countdown"
          description="Listeners see LIVE IN … until then. Clear it for no countdown."
          key={room.countdownTime ?? 'none'}
          defaultValue={toLocalInput(room.countdownTime)}
          min={toLocalInput(room.serverTime)}
          onChange={(event) => saveCountdown(event.currentTarget.value)}
          aria-label="Countdown"
        />
        <TextInput
          label="Broadcaster code"
          readOnly
          value={room.broadcasterCode}
          rightSection={
            <CopyButton
              value={room.broadcasterCode}
              label="Copy broadcaster code"
              message={LIVE_MESSAGES.roomCodeCopied}
            />
          }
        />
        <TextInput
          label="Room link (listeners)"
          readOnly
          value={room.roomLink}
          data-testid="broadcast-room-link"
          rightSectionWidth={72}
          rightSection={
            <Group gap={4} wrap="nowrap">
              <CopyButton value={room.roomLink} label="Copy room link" message={LIVE_MESSAGES.roomLinkCopied} />
              <Tooltip label="Generate new room link (the old one stops at once)">
                <ActionIcon
                  variant="subtle"
                  aria-label="Generate new room link"
                  loading={regenerate.isPending}
                  onClick={() => regenerate.mutate('viewer-realtime')}
                >
                  <IconRefresh size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          }
        />
        <Group gap="sm" wrap="wrap">
          <Button leftSection={<IconPlayerPlay size={16} />} disabled={!room.ready} onClick={onStart}>
            START
          </Button>
        </Group>
        <Group gap="md">
          <Anchor component="button" type="button" size="sm" onClick={onInstructions}>
            <Group gap={4} wrap="nowrap">
              <IconInfoCircle size={14} /> Instructions
            </Group>
          </Anchor>
          <Anchor href={installerUrl} target="_blank" rel="noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconDownload size={14} /> Installer
            </Group>
          </Anchor>
        </Group>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Other software (OBS, GStreamer, ffmpeg, any WHIP encoder)
          </Text>
          <TextInput
            label="WHIP URL"
            readOnly
            value={room.whipUrl}
            rightSection={<CopyButton value={room.whipUrl} label="Copy WHIP URL" message="WHIP URL copied" />}
          />
          {shownKey ? (
            <TextInput
              label="Stream key"
              description={BROADCAST_MESSAGES.streamKeyShownOnce}
              readOnly
              value={shownKey}
              data-testid="stream-key"
              rightSection={<CopyButton value={shownKey} label="Copy stream key" message="Stream key copied" />}
            />
          ) : (
            <Text size="sm" c="dimmed">
              Stream key: {room.streamKey ? <Code>•••• {room.streamKey.hint}</Code> : 'none yet'}
            </Text>
          )}
          <Button
            variant="default"
            size="xs"
            w="fit-content"
            leftSection={<IconKey size={14} />}
            loading={newKey.isPending}
            onClick={() => void newKey.mutateAsync().then((answer) => setShownKey(answer.streamKey))}
          >
            {room.streamKey ? 'Regenerate stream key' : 'Create stream key'}
          </Button>
          <TextInput
            label="WHEP URL (any WHEP player)"
            readOnly
            value={room.whepUrl}
            rightSection={<CopyButton value={room.whepUrl} label="Copy WHEP URL" message="WHEP URL copied" />}
          />
        </Stack>
      </Stack>
    </Card>
  );
}
