/**
 * The frequency span of the server's spectrogram image: ffmpeg's logarithmic scale runs from 20 Hz
 * at the bottom row to half the 22.05 kHz rate the audio is resampled to at the top.
 */
export const SPECTROGRAM_HZ = { min: 20, max: 11_025 } as const;

const CANDIDATES = [50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000];
/** Height of one label line; the lowest line of the lane is kept for the unit (Hz). */
export const AXIS_LABEL_PX = 12;

export const formatHz = (hz: number) => (hz >= 1000 ? `${hz / 1000}k` : String(hz));

/** Height of `hz` above the bottom of a lane `height` pixels tall, on the image's log scale. */
export function frequencyY(hz: number, height: number): number {
  return (Math.log(hz / SPECTROGRAM_HZ.min) / Math.log(SPECTROGRAM_HZ.max / SPECTROGRAM_HZ.min)) * height;
}

/**
 * The axis labels that fit in a lane of this height, lowest first: each centred on its frequency,
 * inside the lane and above the unit, and none touching another.
 */
export function frequencyLabels(height: number): { hz: number; label: string; bottom: number }[] {
  const labels: { hz: number; label: string; bottom: number }[] = [];
  for (const hz of CANDIDATES) {
    if (hz > SPECTROGRAM_HZ.max) break;
    const bottom = frequencyY(hz, height) - AXIS_LABEL_PX / 2;
    if (bottom < AXIS_LABEL_PX || bottom > height - AXIS_LABEL_PX) continue;
    const previous = labels[labels.length - 1];
    if (previous && bottom - previous.bottom < AXIS_LABEL_PX + 1) continue;
    labels.push({ hz, label: formatHz(hz), bottom });
  }
  return labels;
}
