import { ActionIcon, Group, Loader, Paper, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '../../../lib/format/format';
import { useConnectorPreview } from '../queries';

/** What went wrong, in the player's words: a format this browser can't play, or the link itself. */
function problemOf(error: MediaError | null): string {
  if (error?.code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED)
    return 'This browser cannot play this format. Import it to hear it in Mixroom.';
  return 'The preview could not be loaded.';
}

/**
 * A linked audio file heard before it is picked: the server streams it from the provider, a range
 * at a time, so a long file starts at once and a seek fetches only what it needs. Starts playing
 * when it opens; the duration, once the file's header says it, is handed to `onDuration`. The
 * folder view keys it by file, so another file starts from a fresh state.
 */
export function PreviewBar({
  connectorId,
  path,
  name,
  onDuration,
  onClose,
}: {
  connectorId: string;
  path: string;
  name: string;
  onDuration: (seconds: number) => void;
  onClose: () => void;
}) {
  const link = useConnectorPreview(connectorId, path);
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** Where the slider is being dragged: the player seeks once, when it is let go. */
  const [dragging, setDragging] = useState<number | null>(null);
  const url = link.data?.url ?? null;

  // Gone (another file, the dialog closed): its request to the server ends too, not only the sound.
  useEffect(() => {
    const media = audio.current;
    return () => {
      if (!media) return;
      media.pause();
      media.removeAttribute('src');
      media.load();
    };
  }, [url]);

  const toggle = () => {
    const media = audio.current;
    if (!media) return;
    if (media.paused) void media.play().catch(() => undefined);
    else media.pause();
  };
  const failure = link.isError ? link.error.message : problem;

  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      data-testid="connector-preview"
      role="region"
      aria-label={`Preview of ${name}`}
    >
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          size="lg"
          radius="xl"
          variant="filled"
          color="violet"
          onClick={toggle}
          disabled={!url || failure !== null}
          aria-label={playing ? 'Pause preview' : 'Play preview'}
        >
          {playing ? <IconPlayerPauseFilled size={16} /> : <IconPlayerPlayFilled size={16} />}
        </ActionIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <Text size="sm" truncate title={name}>
              {name}
            </Text>
            {link.isPending ? (
              <Loader size="xs" />
            ) : (
              <Text size="xs" c="dimmed" ff="monospace" style={{ flexShrink: 0 }} data-testid="preview-time">
                {formatDuration(time)} / {duration === null ? '–:––' : formatDuration(duration)}
              </Text>
            )}
          </Group>
          {failure ? (
            <Text size="xs" c="red.4" role="alert">
              {failure}
            </Text>
          ) : (
            <Slider
              size="xs"
              color="violet"
              min={0}
              max={duration ?? 1}
              step={0.1}
              value={dragging ?? Math.min(time, duration ?? 1)}
              disabled={duration === null}
              label={(value) => formatDuration(value)}
              onChange={setDragging}
              onChangeEnd={(value) => {
                // One seek (one range request to the provider) per drag, not one per step.
                if (audio.current) audio.current.currentTime = value;
                setTime(value);
                setDragging(null);
              }}
              aria-label="Preview position"
            />
          )}
        </Stack>
        <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label="Close preview">
          <IconX size={16} />
        </ActionIcon>
      </Group>
      {url && (
        <audio
          ref={audio}
          src={url}
          autoPlay
          preload="metadata"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
          onLoadedMetadata={(e) => {
            const seconds = e.currentTarget.duration;
            if (!Number.isFinite(seconds)) return;
            setDuration(seconds);
            onDuration(seconds);
          }}
          onError={(e) => setProblem(problemOf(e.currentTarget.error))}
        />
      )}
    </Paper>
  );
}
