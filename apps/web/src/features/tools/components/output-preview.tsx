import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { z } from 'zod';
import type { taskPreview } from '@mixroom/contracts';
import { usePeaks } from '../queries';
import { engineLabel, figure, OUTPUT_LABELS } from '../tools-rules';
import { WaveformPlayer } from './waveform-player';

type Preview = z.infer<typeof taskPreview>;

/** One output of a task: what it is, the engine that made it, its waveform player and Download. */
export function OutputPreview({ preview, onDownload }: { preview: Preview; onDownload: () => void }) {
  const peaks = usePeaks(preview.peaksUrl);
  return (
    <Stack gap={6} data-testid={`tools-output-${preview.kind}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            {OUTPUT_LABELS[preview.kind]}
          </Text>
          <Badge variant="outline" color="gray" size="sm" tt="none" data-testid="tools-engine">
            {engineLabel(preview.engine)}
          </Badge>
          <Text size="xs" c="dimmed">
            {figure(preview.durationSeconds)}
          </Text>
        </Group>
        <Button size="compact-sm" variant="subtle" leftSection={<IconDownload size={14} />} onClick={onDownload}>
          {preview.fileName}
        </Button>
      </Group>
      {peaks.isLoading ? (
        <Loader size="sm" />
      ) : (
        <WaveformPlayer
          src={preview.audioUrl}
          peaks={peaks.data ?? null}
          name={preview.fileName}
          height={64}
          testId={`tools-output-player-${preview.kind}`}
        />
      )}
    </Stack>
  );
}
