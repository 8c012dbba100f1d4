import { Button, Group, Loader, Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconHeadphones } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import type { Version } from '@mixroom/contracts';
import { appliedGain, LOUDNESS_TARGETS, normalisationGain } from '@mixroom/shared';
import { formatMeasure } from '../../../lib/format/measurement-format';

const dB = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(2)} dB`;

type Loudness = NonNullable<Version['loudness']>;
/** A loudness whose integrated figure exists: the platforms' gains follow from it. */
type Integrated = Loudness & { integrated: number };

interface PlatformRow {
  platform: string;
  lufs: number;
  gain: number;
  applied: number;
}

// Without a true peak the headroom is unknown: a boost is counted as if none were left.
const rowsFor = (loudness: Integrated): PlatformRow[] =>
  LOUDNESS_TARGETS.map((target) => ({
    platform: target.platform,
    lufs: target.lufs,
    gain: normalisationGain(loudness.integrated, target.lufs),
    applied: appliedGain(target.platform, loudness.integrated, loudness.truePeak ?? -1, target.lufs),
  }));

const integrated = (loudness: Loudness): Integrated | null =>
  loudness.integrated === null ? null : { ...loudness, integrated: loudness.integrated };

/** What a platform's normalisation does to the track, in words. */
function Outcome({ row }: { row: PlatformRow }) {
  const { applied, gain } = row;
  if (applied < 0)
    return (
      <Text size="sm" c="orange" fw={600}>
        Turned down {Math.abs(applied).toFixed(2)} dB
      </Text>
    );
  if (applied > 0)
    return (
      <Text size="sm" c="teal" fw={600}>
        Turned up {applied.toFixed(2)} dB{applied < gain ? ' (peak-limited)' : ''}
      </Text>
    );
  return (
    <Text size="sm" c="dimmed">
      {gain > 0 ? `As is, ${gain.toFixed(2)} dB below target` : 'As is'}
    </Text>
  );
}

function Figure({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: string;
  color?: string | undefined;
  testId?: string;
}) {
  return (
    <Stack gap={0} align="center">
      <Text size="xs" c="dimmed" ta="center">
        {label}
      </Text>
      <Text
        fw={700}
        fz={{ base: 'md', sm: 'xl' }}
        ff="monospace"
        c={color}
        style={{ whiteSpace: 'nowrap' }}
        data-testid={testId}
      >
        {value}
      </Text>
    </Stack>
  );
}

/** Four columns on a wide screen; on a phone one card per platform, nothing cut off. */
function PlatformTable({ rows, compact }: { rows: PlatformRow[]; compact: boolean }) {
  if (compact)
    return (
      <Stack gap={6}>
        {rows.map((row) => (
          <Stack
            key={row.platform}
            gap={2}
            p="xs"
            bg="var(--mantine-color-default-hover)"
            style={{ borderRadius: 8 }}
            data-testid="loudness-row"
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} size="sm">
                {row.platform}
              </Text>
              <Text ff="monospace" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                Target {row.lufs} LUFS · {dB(row.gain)}
              </Text>
            </Group>
            <Outcome row={row} />
          </Stack>
        ))}
      </Stack>
    );
  return (
    <Table striped verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Platform</Table.Th>
          <Table.Th>Target</Table.Th>
          <Table.Th>Difference</Table.Th>
          <Table.Th>What listeners hear</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.platform} data-testid="loudness-row">
            <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
              {row.platform}
            </Table.Td>
            <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {row.lufs} LUFS
            </Table.Td>
            <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {dB(row.gain)}
            </Table.Td>
            <Table.Td>
              <Outcome row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Integrated loudness and true peak from the processing job, against each platform's target, with
 * a way to hear it as a platform plays it (`onPreview`, null while the player can't play).
 */
export function LoudnessDialog({
  version,
  opened,
  onClose,
  onPreview,
}: {
  version: Version;
  opened: boolean;
  onClose: () => void;
  onPreview: (() => void) | null;
}) {
  const compact = useMediaQuery('(max-width: 36em)') ?? false;
  const loudness = version.loudness;
  const measured = loudness ? integrated(loudness) : null;
  return (
    <Modal opened={opened} onClose={onClose} title="Loudness levels" centered size="lg">
      {!loudness ? (
        version.status === 'corrupt' || (version.status === 'ready' && version.progress >= 100) ? (
          <Text c="dimmed">The loudness of this version could not be measured.</Text>
        ) : (
          <Group gap="sm">
            <Loader size="sm" color="violet" />
            <Text c="dimmed">Measuring loudness and true peak… The figures appear here as soon as they are ready.</Text>
          </Group>
        )
      ) : (
        <Stack>
          <SimpleGrid cols={3} spacing="xs">
            <Figure
              label="Integrated loudness"
              value={formatMeasure(loudness.integrated, 'LUFS')}
              testId="integrated-loudness"
            />
            <Figure
              label="True peak"
              value={formatMeasure(loudness.truePeak, 'dBTP')}
              color={loudness.truePeak !== null && loudness.truePeak > -1 ? 'orange' : undefined}
              testId="true-peak"
            />
            <Figure label="Loudness range" value={formatMeasure(loudness.range, 'LU')} testId="loudness-range" />
          </SimpleGrid>
          {measured && <PlatformTable rows={rowsFor(measured)} compact={compact} />}
          <Text size="xs" c="dimmed">
            Measured with EBU R128 (ITU-R BS.1770) over the whole file. Platforms that raise quiet tracks stop at −1
            dBTP; the others leave them as they are.
          </Text>
          {onPreview && (
            <Group justify="flex-end">
              <Button variant="light" leftSection={<IconHeadphones size={16} />} onClick={onPreview}>
                Hear it as each platform plays it
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
