import { Badge, Group, SegmentedControl, Select, Switch, Tooltip } from '@mantine/core';
import { IconHeadphones, IconArrowsExchange } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { Version } from '@mixroom/contracts';
import type { Compare } from '../hooks/use-compare';
import { formatGain, PLATFORMS, type PlatformChoice } from '../playback-gain';
import { ReferencePicker } from './reference-picker';

/** The picker's entry that opens the search for a version of another project. */
const REFERENCE = 'reference';

/**
 * A/B against another version of the project, or a reference track from any project the user
 * sees, at the same playhead (key B), optionally matched in loudness, and "hear it as" a streaming
 * platform's normalisation would play it. The gain each one applies is shown. `revealPlatform`
 * counts requests (from the loudness dialog) to bring the platform selector into view, open.
 */
export function CompareBar({
  version,
  versions,
  compare,
  revealPlatform,
}: {
  version: Version;
  versions: Version[];
  compare: Compare;
  revealPlatform: number;
}) {
  const { state, other, platform, otherProject } = compare;
  const choices = versions.filter((v) => v.id !== version.id && v.status === 'ready');
  const comparing = Boolean(other);
  const [picking, setPicking] = useState(false);
  const [platformsOpen, setPlatformsOpen] = useState(false);
  const platformInput = useRef<HTMLInputElement>(null);
  const compareInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!revealPlatform) return;
    platformInput.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    platformInput.current?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- opened on request from another dialog
    setPlatformsOpen(true);
  }, [revealPlatform]);
  const bLabel = other ? (otherProject ? `${otherProject} v${other.number}` : `v${other.number}`) : '';
  const data = [
    {
      group: 'This project',
      items: choices.map((v) => ({ value: v.id, label: `B: v${v.number} · ${v.name}` })),
    },
    {
      group: 'Reference track',
      items: [
        ...(other && otherProject ? [{ value: other.id, label: `B: ${otherProject} · v${other.number}` }] : []),
        { value: REFERENCE, label: 'From another project…' },
      ],
    },
  ];
  const gainA = state.gains.a;
  const gainB = state.gains.b;
  return (
    <Group gap="sm" wrap="wrap" mt="sm" data-testid="compare-bar" align="center">
      <Group gap={6} wrap="nowrap">
        <IconArrowsExchange size={16} color="#a9a3c9" aria-hidden />
        <Select
          ref={compareInput}
          aria-label="Compare with"
          placeholder="Compare with…"
          size="xs"
          w={220}
          clearable
          data={data}
          value={other?.id ?? null}
          onChange={(id) => {
            if (id === REFERENCE) return setPicking(true);
            // Picked, the field lets go of the keyboard: B, space and the other keys work at once.
            compareInput.current?.blur();
            const chosen = id && choices.find((v) => v.id === id);
            if (chosen) compare.pick({ id: chosen.id, projectId: chosen.projectId });
            else if (!id) compare.pick(null);
          }}
        />
        <ReferencePicker
          opened={picking}
          currentVersionId={version.id}
          onClose={() => setPicking(false)}
          onPick={compare.pick}
        />
      </Group>
      {comparing && (
        <>
          <Tooltip label="Switch at the same playhead (key B). Comments follow the version playing.">
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
                { value: 'B', label: state.bReady ? `B · ${bLabel}` : 'B · loading…' },
              ]}
              color={state.active === 'B' ? 'orange' : 'violet'}
            />
          </Tooltip>
          <Switch
            size="xs"
            label="Match loudness"
            checked={compare.match}
            disabled={version.loudness?.integrated == null || other?.loudness?.integrated == null}
            onChange={(e) => compare.setMatch(e.currentTarget.checked)}
          />
          <GainBadge side="A" db={gainA} />
          <GainBadge side="B" db={gainB} />
        </>
      )}
      <Group gap={6} wrap="nowrap">
        <IconHeadphones size={16} color="#a9a3c9" aria-hidden />
        <Select
          ref={platformInput}
          aria-label="Hear it as"
          size="xs"
          w={140}
          allowDeselect={false}
          dropdownOpened={platformsOpen}
          onDropdownOpen={() => setPlatformsOpen(true)}
          onDropdownClose={() => setPlatformsOpen(false)}
          data={PLATFORMS.map((p) => ({ value: p, label: p === 'Original' ? 'As mastered' : `As ${p}` }))}
          value={platform}
          onChange={(p) => {
            platformInput.current?.blur();
            compare.setPlatform((p ?? 'Original') as PlatformChoice);
          }}
        />
        {platform !== 'Original' && !comparing && (
          <Tooltip
            label={
              version.loudness?.integrated != null
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
