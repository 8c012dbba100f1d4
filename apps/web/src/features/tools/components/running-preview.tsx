import { Button, Collapse, Group, Loader, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconHeadphones } from '@tabler/icons-react';
import { useState } from 'react';
import { useTaskPartialPreview } from '../queries';
import { figure, OUTPUT_LABELS } from '../tools-rules';
import { WaveformPlayer } from './waveform-player';

/**
 * The finished start of a running separation: a Preview button telling how much is ready, and
 * when opened a player per stem playing that much. The players follow as more becomes ready (the
 * server refreshes the preview each time the finished part doubles).
 */
export function RunningPreview({ taskId, seconds }: { taskId: string; seconds: number }) {
  const [open, setOpen] = useState(false);
  const preview = useTaskPartialPreview(taskId, seconds, open);
  const items = preview.data?.items ?? [];
  return (
    <Stack gap={6} data-testid="tools-running-preview">
      <Group gap="xs" wrap="wrap">
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconHeadphones size={14} />}
          rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
        >
          Preview
        </Button>
        <Text size="xs" c="dimmed" data-testid="tools-running-preview-ready">
          {figure(seconds)} ready — the rest is still being processed
        </Text>
      </Group>
      <Collapse in={open}>
        <Stack gap="sm" pt={4}>
          {preview.isLoading && <Loader size="sm" />}
          {items.map((item) => (
            <Stack gap={4} key={item.kind}>
              <Text fw={600} size="sm">
                {OUTPUT_LABELS[item.kind]}{' '}
                <Text span size="xs" c="dimmed" fw={400}>
                  first {figure(preview.data?.seconds)}
                </Text>
              </Text>
              <WaveformPlayer
                src={item.audioUrl}
                name={item.fileName}
                height={48}
                testId={`tools-running-preview-player-${item.kind}`}
              />
            </Stack>
          ))}
        </Stack>
      </Collapse>
    </Stack>
  );
}
