import { Badge, Group, SegmentedControl, Select, Switch, Tooltip } from '@mantine/core';
import { IconHeadphones, IconArrowsExchange } from '@tabler/icons-react';
import type { Version } from '@mixroom/contracts';
import type { Compare } from '../hooks/use-compare';
import { formatGain, PLATFORMS, type PlatformChoice } from '../playback-gain';

/**
 * A/B against another version of the project at the same playhead (key B), optionally matched in
 * loudness, and "hear it as" a streaming platform's normalisation would play it. The gain each
 * one applies is shown.
 */
export function CompareBar({
  version,
  versions,
  compare,
}: {
  version: Version;
  versions: Version[];
  compare: Compare;
}) {
  const { state, other, platform } = compare;
  const choices = versions.filter((v) => v.id !== version.id && v.status === 'ready');
  const comparing = Boolean(other);
  const gainA = state.gains.a;
  const gainB = state.gains.b;
  return (
    <Group gap="sm" wrap="wrap" mt="sm" data-testid="compare-bar" align="center">
      <Group gap={6} wrap="nowrap">
        <IconArrowsExchange size={16} color="#a9a3c9" aria-hidden />
        <Select
          aria-label="Compare with"
          placeholder={choices.length ? 'Compare with…' : 'No other version to compare'}
          size="xs"
          w={200}
          clearable
          disabled={!choices.length}
          data={choices.map((v) => ({ value: v.id, label: `B: v${v.number} · ${v.name}` }))}
          value={other?.id ?? null}
          onChange={compare.setOtherId}
        />
      </Group>
      {comparing && (
        <>
          <Tooltip
            label={`Switch at the same playhead (key B). Comments and the waveform are those of v${version.number}.`}
          >
            <SegmentedControl
              size="xs"
              aria-label="Playing"
              data-testid="ab-toggle"
              data-active={state.active}
              disabled={!state.bReady}
              value={state.active}
              onChange={(side) => compare.mix?.switchTo(side as 'A' | 'B')}
              data={[
                { value: 'A', label: `A · v${version.number}` },
                { value: 'B', label: state.bReady ? `B · v${other!.number}` : 'B · loading…' },
              ]}
              color={state.active === 'B' ? 'orange' : 'violet'}
            />
          </Tooltip>
          <Switch
            size="xs"
            label="Match loudness"
            checked={compare.match}
            disabled={!version.loudness || !other?.loudness}
            onChange={(e) => compare.setMatch(e.currentTarget.checked)}
          />
          <GainBadge side="A" db={gainA} />
          <GainBadge side="B" db={gainB} />
        </>
      )}
      <Group gap={6} wrap="nowrap">
        <IconHeadphones size={16} color="#a9a3c9" aria-hidden />
        <Select
          aria-label="Hear it as"
          size="xs"
          w={140}
          allowDeselect={false}
          data={PLATFORMS.map((p) => ({ value: p, label: p === 'Original' ? 'As mastered' : `As ${p}` }))}
          value={platform}
          onChange={(p) => compare.setPlatform((p ?? 'Original') as PlatformChoice)}
        />
        {platform !== 'Original' && !comparing && (
          <Tooltip
            label={
              version.loudness
                ? `${platform} plays v${version.number} (${version.loudness.integrated.toFixed(1)} LUFS) at this gain`
                : 'This version has no loudness measurement yet: it plays as is.'
            }
          >
            <GainBadge side={null} db={gainA} />
          </Tooltip>
        )}
      </Group>
    </Group>
  );
}

/** The gain one side plays with (platform normalisation and loudness match together). */
function GainBadge({ side, db }: { side: 'A' | 'B' | null; db: number }) {
  return (
    <Badge
      variant="light"
      color={side === 'B' ? 'orange' : 'teal'}
      ff="monospace"
      tt="none"
      data-testid={side === 'B' ? 'gain-b' : 'gain-a'}
    >
      {side ? `${side} ` : ''}
      {formatGain(db)}
    </Badge>
  );
}
