import { describe, expect, it } from 'vitest';
import { AXIS_LABEL_PX, frequencyLabels, frequencyY, SPECTROGRAM_HZ } from './spectrogram-axis';

describe('the spectrogram frequency axis', () => {
  it('maps frequencies on the image log scale, one octave per equal step', () => {
    expect(frequencyY(SPECTROGRAM_HZ.min, 128)).toBeCloseTo(0);
    expect(frequencyY(SPECTROGRAM_HZ.max, 128)).toBeCloseTo(128);
    expect(frequencyY(2000, 128) - frequencyY(1000, 128)).toBeCloseTo(frequencyY(200, 128) - frequencyY(100, 128));
  });

  it('labels 50 Hz to 5 kHz in a 128 px lane, inside it and none touching', () => {
    const labels = frequencyLabels(128);
    expect(labels.map((l) => l.label)).toEqual(['50', '100', '200', '500', '1k', '2k', '5k']);
    for (const label of labels) {
      expect(label.bottom).toBeGreaterThanOrEqual(AXIS_LABEL_PX);
      expect(label.bottom + AXIS_LABEL_PX).toBeLessThanOrEqual(128);
    }
    for (let i = 1; i < labels.length; i++)
      expect(labels[i]!.bottom - labels[i - 1]!.bottom).toBeGreaterThan(AXIS_LABEL_PX);
  });
});
