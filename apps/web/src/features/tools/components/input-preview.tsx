import { Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useMemo } from 'react';
import { reviewApi } from '../../review/api';
import type { ToolInput } from '../tool-input';
import { WaveformPlayer } from './waveform-player';

/** A local file's blob URL for as long as it is shown. */
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}

/**
 * The chosen audio's peak meter, waveform and player: a local file is decoded in the browser (a
 * preview before anything is sent); a library version plays its stream with the server's peaks.
 * A link is fetched by the server only when the task starts, so it has no preview.
 */
export function InputPreview({ input }: { input: ToolInput | null }) {
  // The spec's waveform height (300) on a desktop; a phone keeps room for the rest.
  const tall = useMediaQuery('(min-width: 1000px)') ?? true;
  const local = useObjectUrl(input?.kind === 'file' ? input.file : null);
  const versionId = input?.kind === 'version' ? input.versionId : null;
  const stream = useQuery({
    queryKey: ['tools', 'input-stream', versionId],
    queryFn: () => reviewApi.streamUrl(versionId ?? ''),
    enabled: Boolean(versionId),
    staleTime: 5 * 60_000,
  });
  const peaks = useQuery({
    queryKey: ['tools', 'input-peaks', versionId],
    queryFn: ({ signal }) => reviewApi.peaks(versionId ?? '', signal),
    enabled: Boolean(versionId),
    staleTime: Infinity,
    retry: false,
  });

  if (!input) return null;
  if (input.kind === 'link' || input.kind === 'linked')
    return (
      <Paper withBorder p="md" radius="md">
        <Text size="sm" c="dimmed">
          {input.kind === 'link'
            ? 'The server downloads the linked file when you press Process; its waveform appears with the results.'
            : 'The server copies the file from your linked storage when you press Process; its waveform appears with the results.'}
        </Text>
      </Paper>
    );
  const src = input.kind === 'file' ? local : (stream.data?.url ?? null);
  if (!src || (input.kind === 'version' && peaks.isLoading)) return null;
  return (
    <Paper withBorder p="md" radius="md">
      <WaveformPlayer
        key={src}
        src={src}
        peaks={input.kind === 'version' ? (peaks.data ?? null) : null}
        file={input.kind === 'file' ? input.file : null}
        name={input.kind === 'file' ? input.file.name : input.name}
        meter={input.kind === 'file'}
        height={tall ? 300 : 140}
        testId="tools-input-player"
      />
    </Paper>
  );
}
