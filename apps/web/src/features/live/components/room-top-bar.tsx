import { Anchor, Badge, Button, Chip, Group, Select, Switch, Text, Tooltip } from '@mantine/core';
import {
  IconDownload,
  IconInfoCircle,
  IconLink,
  IconLogout,
  IconPlayerRecord,
  IconPlayerStop,
} from '@tabler/icons-react';
import { LIVE_BITRATES, liveFreeTimeLeft, type LiveBitrate } from '@mixroom/shared';
import type { AudioInput } from '../audio/capture';
import type { EngineSnapshot, LiveSourceKind } from '../live-engine-state';
import { BRIDGE_INSTALLER_URL } from '../links';
import { LevelMeter } from './level-meter';
import { LosslessIndicator, LosslessToggle } from './lossless-controls';

interface TopBarProps {
  publisher: boolean;
  snapshot: EngineSnapshot;
  inputs: AudioInput[];
  remainingMs: number | null;
  canRecord: boolean;
  onQuality: (bitrate: LiveBitrate) => void;
  onSource: (source: LiveSourceKind, deviceId?: string | null) => void;
  onAutoMute: (on: boolean) => void;
  onLossless: (on: boolean) => void;
  onRecord: () => void;
  onInstructions: () => void;
  onRoomLink: () => void;
  onExit: () => void;
  ownLevel: () => number;
  masterLevel: () => number;
}

const STATE_COLORS: Record<string, string> = {
  connected: 'teal',
  connecting: 'yellow',
  disconnected: 'orange',
  failed: 'red',
  closed: 'gray',
  new: 'gray',
};

/** The room's controls: quality and sources (publishers), Auto Mute, recording, links and Exit. */
export function RoomTopBar(props: TopBarProps) {
  const { snapshot: s, publisher } = props;
  const recordLabel = s.recording === 'idle' ? 'Start Rec' : 'Stop Rec';
  return (
    <Group gap="sm" wrap="wrap" align="center" data-testid="live-top-bar">
      {publisher && (
        <>
          <Text size="xs" c="dimmed">
            Quality
          </Text>
          <Select
            aria-label="Quality"
            size="xs"
            w={130}
            allowDeselect={false}
            data={LIVE_BITRATES.map((b) => ({ value: String(b.value), label: `${b.label} ${b.value / 1000}k` }))}
            value={String(s.bitrate)}
            onChange={(value) => value && props.onQuality(Number(value) as LiveBitrate)}
          />
          <Chip.Group value={s.source} onChange={(value) => props.onSource((value as LiveSourceKind) || 'input')}>
            <Group gap={6} wrap="nowrap">
              <Chip value="input" size="xs">
                Audio input
              </Chip>
              <Tooltip label={s.bridgeConnected.plugin ? 'Bridge connected' : 'Waiting for the bridge on 7777/7778'}>
                <Chip value="plugin" size="xs" color={s.bridgeConnected.plugin ? 'teal' : 'gray'}>
                  Plugin
                </Chip>
              </Tooltip>
              <Tooltip label={s.bridgeConnected.driver ? 'Bridge connected' : 'Waiting for the bridge on 7775/7776'}>
                <Chip value="driver" size="xs" color={s.bridgeConnected.driver ? 'teal' : 'gray'}>
                  System Wide
                </Chip>
              </Tooltip>
            </Group>
          </Chip.Group>
          {s.source === 'input' && props.inputs.length > 1 && (
            <Select
              aria-label="Audio interface"
              size="xs"
              w={200}
              data={props.inputs.map((i) => ({ value: i.deviceId, label: i.label }))}
              value={s.inputDeviceId ?? props.inputs[0]?.deviceId ?? null}
              onChange={(value) => props.onSource('input', value)}
            />
          )}
          <Group gap={6} wrap="nowrap">
            <Badge
              size="sm"
              variant="dot"
              color={STATE_COLORS[s.publishState]}
              data-testid="publish-state"
              data-state={s.publishState}
            >
              Sending: {s.muted ? 'muted' : s.publishState}
            </Badge>
            <LevelMeter level={props.ownLevel} label="Your level" width={70} />
          </Group>
          <LosslessToggle snapshot={s} onChange={props.onLossless} />
        </>
      )}
      <Group gap={6} wrap="nowrap">
        <Badge
          size="sm"
          variant="dot"
          color={STATE_COLORS[s.viewState]}
          data-testid="view-state"
          data-state={s.viewState}
        >
          Receiving: {s.viewState}
        </Badge>
        <LevelMeter level={props.masterLevel} label="Room level" width={70} />
      </Group>
      <LosslessIndicator snapshot={s} />
      <Switch
        size="sm"
        label="Auto Mute"
        checked={s.autoMute}
        onChange={(e) => props.onAutoMute(e.currentTarget.checked)}
      />
      <Button
        size="xs"
        color={s.recording === 'idle' ? 'red' : 'gray'}
        variant={s.recording === 'idle' ? 'light' : 'filled'}
        loading={s.recording === 'stopping'}
        leftSection={s.recording === 'idle' ? <IconPlayerRecord size={14} /> : <IconPlayerStop size={14} />}
        onClick={props.onRecord}
      >
        {recordLabel}
      </Button>
      {s.recording !== 'idle' && (
        <Text size="sm" fw={600} c="red" data-testid="record-time" data-seconds={s.recordedSeconds}>
          REC {Math.floor(s.recordedSeconds / 60)}:{String(s.recordedSeconds % 60).padStart(2, '0')}
        </Text>
      )}
      {props.remainingMs !== null && (
        <Text size="sm" fw={600} c="orange" data-testid="free-time">
          FREE TIME LEFT {liveFreeTimeLeft(props.remainingMs)}
        </Text>
      )}
      <Group gap="md" ml="auto" wrap="wrap" justify="flex-end">
        <Anchor component="button" type="button" size="sm" onClick={props.onInstructions}>
          <Group gap={4} wrap="nowrap">
            <IconInfoCircle size={14} /> Instructions
          </Group>
        </Anchor>
        <Anchor component="button" type="button" size="sm" onClick={props.onRoomLink}>
          <Group gap={4} wrap="nowrap">
            <IconLink size={14} /> Room Link
          </Group>
        </Anchor>
        {publisher && (
          <Anchor href={BRIDGE_INSTALLER_URL} target="_blank" rel="noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconDownload size={14} /> Installer
            </Group>
          </Anchor>
        )}
        <Button size="xs" variant="default" leftSection={<IconLogout size={14} />} onClick={props.onExit}>
          Exit
        </Button>
      </Group>
    </Group>
  );
}
