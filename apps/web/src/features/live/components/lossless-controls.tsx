import { Badge, Group, Switch, Text, Tooltip } from '@mantine/core';
import type { EngineSnapshot } from '../live-engine-state';

export const LOSSLESS_TEXTS = {
  toggle: 'Lossless',
  on: 'Sending 48 kHz 24-bit PCM beside Opus; listeners hear the PCM while it flows.',
  off: 'Send 48 kHz 24-bit PCM beside Opus (about 2.3 Mbit/s).',
  notInPlan: 'Lossless mode is available on the Studio and Live plans.',
  pending: 'Available once your stream is connected.',
} as const;

/** The publisher's Lossless switch: disabled, with the reason, where the host's plan has no lossless. */
export function LosslessToggle({
  snapshot: s,
  onChange,
}: {
  snapshot: EngineSnapshot;
  onChange: (on: boolean) => void;
}) {
  const allowed = s.losslessAllowed === true;
  const reason =
    s.losslessAllowed === false
      ? LOSSLESS_TEXTS.notInPlan
      : !allowed
        ? LOSSLESS_TEXTS.pending
        : s.lossless
          ? LOSSLESS_TEXTS.on
          : LOSSLESS_TEXTS.off;
  return (
    <Tooltip label={reason} multiline w={260}>
      <div data-testid="lossless-toggle" data-allowed={String(s.losslessAllowed)}>
        <Switch
          size="sm"
          label={LOSSLESS_TEXTS.toggle}
          aria-description={reason}
          checked={allowed && s.lossless}
          disabled={!allowed}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      </div>
    </Tooltip>
  );
}

/**
 * What a listener hears of each lossless publisher: "Lossless" with the jitter buffer's depth and
 * the dropouts so far while the PCM plays; "Opus" while it has stalled (the Opus track plays then).
 */
export function LosslessIndicator({ snapshot: s }: { snapshot: EngineSnapshot }) {
  if (s.losslessIn.length === 0) return null;
  return (
    <>
      {s.losslessIn.map((stream) => (
        <Group
          key={stream.participant}
          gap={6}
          wrap="nowrap"
          data-testid="lossless-indicator"
          data-preferred={String(stream.preferred)}
          data-depth-ms={stream.depthMs}
          data-target-ms={stream.targetMs}
          data-dropouts={stream.dropouts}
        >
          <Tooltip
            label={
              stream.preferred
                ? 'You hear this stream as 24-bit PCM, through a jitter buffer.'
                : 'The lossless stream has stalled: you hear its Opus stream meanwhile.'
            }
          >
            <Badge size="sm" color={stream.preferred ? 'teal' : 'gray'} variant={stream.preferred ? 'filled' : 'light'}>
              {stream.preferred ? 'Lossless' : 'Opus (lossless stalled)'}
            </Badge>
          </Tooltip>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Buffer {stream.depthMs} / {stream.targetMs} ms · {stream.dropouts}{' '}
            {stream.dropouts === 1 ? 'dropout' : 'dropouts'}
          </Text>
        </Group>
      ))}
    </>
  );
}
