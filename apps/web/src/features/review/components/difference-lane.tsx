import { Button, Group, Progress, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DifferenceRegion, VersionDifference } from '@mixroom/contracts';
import { DIFFERENCE_LANE } from '@mixroom/shared';
import { ApiError } from '../../../lib/api-client';
import { reviewApi } from '../api';
import { describeAlignment, describeEverywhere } from '../difference-summary';
import { usePlayer } from '../hooks/use-player';
import { reviewKeys, useDifference } from '../queries';
import { formatPrecise } from '../time-format';
import { Follow } from './waveform-view';
import classes from './review.module.css';

const HEIGHT = 40;
/** Regions listed under the lane as buttons (the lane's own marks get thin on an hour). */
const LISTED = 6;

const span = (r: DifferenceRegion) => `${formatPrecise(r.start)}–${formatPrecise(r.end)}`;

/**
 * "What changed": under the waveforms in A/B mode, the level of B − A over A's timeline (after
 * lining up their starts), with the regions above the threshold marked. Clicking one seeks there;
 * A/B keeps playing as it was. While the server works the lane shows its progress.
 */
export function DifferenceLane({
  versionId,
  otherVersionId,
  duration,
}: {
  versionId: string;
  otherVersionId: string;
  duration: number;
}) {
  const difference = useDifference(versionId, otherVersionId);
  const player = usePlayer();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  const data = difference.data;
  const retry = async () => {
    setRetrying(true);
    try {
      const fresh = await reviewApi.difference(versionId, otherVersionId, true);
      queryClient.setQueryData(reviewKeys.difference(versionId, otherVersionId), fresh);
    } finally {
      setRetrying(false);
    }
  };
  const seek = (region: DifferenceRegion) => player?.seek(region.start);

  let status;
  if (difference.isError)
    status = (
      <Text size="xs" c="orange" data-testid="difference-status" data-status="error">
        {difference.error instanceof ApiError ? difference.error.message : 'The comparison could not be loaded.'}
      </Text>
    );
  else if (!data || data.status === 'pending')
    status = (
      <Group gap="xs" wrap="nowrap" data-testid="difference-status" data-status="pending" style={{ flex: 1 }}>
        <Text size="xs" c="#a9a3c9" style={{ whiteSpace: 'nowrap' }}>
          Finding what changed… {data?.progress ?? 0}%
        </Text>
        <Progress value={data?.progress ?? 0} size="xs" color="orange" animated style={{ flex: 1, maxWidth: 240 }} />
      </Group>
    );
  else if (data.status === 'failed')
    status = (
      <Group gap="xs" data-testid="difference-status" data-status="failed">
        <Text size="xs" c="orange">
          {data.error ?? 'The comparison could not be computed.'}
        </Text>
        <Button size="compact-xs" variant="light" color="orange" loading={retrying} onClick={() => void retry()}>
          Try again
        </Button>
      </Group>
    );
  else status = <Summary data={data} onSeek={seek} />;

  return (
    <div className={classes.differenceBlock} data-testid="difference-lane" data-status={data?.status ?? 'loading'}>
      <Group gap="xs" justify="space-between" wrap="wrap" mb={4}>
        <Text size="xs" fw={700} c="#ece8ff">
          What changed
        </Text>
        {status}
      </Group>
      <div className={classes.lane} style={{ height: HEIGHT }}>
        {data?.status === 'ready' && (
          <Follow player={player} className={classes.laneLayer}>
            <LaneCurve data={data} height={HEIGHT} duration={duration} />
            {data.regions.map((region) => (
              <UnstyledButton
                key={region.start}
                className={classes.laneRegion}
                style={{
                  left: `${(region.start / duration) * 100}%`,
                  width: `${((region.end - region.start) / duration) * 100}%`,
                }}
                aria-label={`Changed ${span(region)}`}
                title={`Changed ${span(region)} (difference up to ${region.peakDb.toFixed(1)} dB)`}
                data-testid="changed-region"
                data-start={region.start}
                data-end={region.end}
                onClick={() => seek(region)}
              />
            ))}
          </Follow>
        )}
      </div>
    </div>
  );
}

/**
 * How many regions and, only when the server is sure of it, how B lines up; a change covering the
 * whole file is said in words (its level and tilt) instead of as one region as long as the file.
 */
function Summary({ data, onSeek }: { data: VersionDifference; onSeek: (region: DifferenceRegion) => void }) {
  const alignment = describeAlignment(data);
  const withAlignment = (text: string) => (alignment ? `${text} · ${alignment}` : text);
  if (data.everywhere)
    return (
      <Group gap={6} wrap="wrap" data-testid="difference-status" data-status="ready">
        <Text size="xs" c="#a9a3c9" data-testid="difference-everywhere">
          {withAlignment(describeEverywhere(data.overall))}
        </Text>
      </Group>
    );
  return (
    <Group gap={6} wrap="wrap" data-testid="difference-status" data-status="ready">
      <Text size="xs" c="#a9a3c9">
        {data.regions.length === 0
          ? `No audible difference${alignment ? ` (${alignment})` : ''}`
          : withAlignment(`${data.regions.length} changed ${data.regions.length === 1 ? 'region' : 'regions'}`)}
      </Text>
      {data.regions.slice(0, LISTED).map((region) => (
        <Button
          key={region.start}
          size="compact-xs"
          variant="light"
          color="orange"
          ff="monospace"
          onClick={() => onSeek(region)}
        >
          {span(region)}
        </Button>
      ))}
      {data.regions.length > LISTED && (
        <Text size="xs" c="#a9a3c9">
          +{data.regions.length - LISTED} more on the lane
        </Text>
      )}
    </Group>
  );
}

/** The difference's level as a filled curve, with the threshold as a dashed line. */
function LaneCurve({ data, height, duration }: { data: VersionDifference; height: number; duration: number }) {
  const { floorDb, ceilingDb } = DIFFERENCE_LANE;
  const y = (db: number) => ((ceilingDb - Math.max(floorDb, Math.min(ceilingDb, db))) / (ceilingDb - floorDb)) * height;
  const n = data.levels.length;
  const points = data.levels.map((db, i) => `${i},${y(db).toFixed(1)} ${i + 1},${y(db).toFixed(1)}`).join(' ');
  const threshold = y(data.thresholdDb);
  return (
    <svg
      className={classes.laneCurve}
      viewBox={`0 0 ${Math.max(1, n)} ${height}`}
      preserveAspectRatio="none"
      // The last point may run a little past A's end: the curve keeps the time scale of the lane.
      style={{ width: `${((n * (data.windowSeconds ?? 0)) / duration) * 100}%` }}
      aria-hidden
      data-testid="difference-curve"
    >
      <polygon points={`0,${height} ${points} ${n},${height}`} fill="rgba(240, 160, 75, 0.55)" />
      <line
        x1={0}
        x2={n}
        y1={threshold}
        y2={threshold}
        stroke="rgba(255,255,255,0.35)"
        strokeDasharray="4 4"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
