import { Group, Stack, Text } from '@mantine/core';
import { memo, useEffect, useRef } from 'react';
import { graphFor, mixBus } from '../audio-graph';
import { usePlayer } from '../hooks/use-player';
import { meterColor, meterGradient, meterPercent, meterReadout, METER_FLOOR_DB } from '../meter-scale';
import classes from './review.module.css';

const HOLD_MS = 1500;
let meter: { context: AudioContext; analysers: AnalyserNode[] } | null = null;

/** Analysers on the review's bus, built once: the meter reads what is heard (A or B, any gain). */
function meterFor(media: HTMLMediaElement) {
  graphFor(media);
  if (meter) return meter;
  const { context, bus } = mixBus();
  const splitter = context.createChannelSplitter(2);
  bus.connect(splitter);
  const analysers = [0, 1].map((channel) => {
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    splitter.connect(analyser, channel);
    return analyser;
  });
  meter = { context, analysers };
  return meter;
}

const GRADIENT = meterGradient();

/** Sample-peak meter per channel (dBFS) with a peak hold, read from the playing audio. */
export const PeakMeter = memo(function PeakMeter() {
  const player = usePlayer();
  const fills = useRef<(HTMLDivElement | null)[]>([]);
  const holds = useRef<(HTMLDivElement | null)[]>([]);
  const readouts = useRef<(HTMLSpanElement | null)[]>([]);

  useEffect(() => {
    if (!player) return;
    const { context, analysers } = meterFor(player.media);
    void context.resume();
    const buffer = new Float32Array(2048);
    const held = analysers.map(() => ({ db: METER_FLOOR_DB, at: 0 }));
    let frame = requestAnimationFrame(function draw(now) {
      analysers.forEach((analyser, channel) => {
        analyser.getFloatTimeDomainData(buffer);
        let peak = 0;
        for (const sample of buffer) peak = Math.max(peak, Math.abs(sample));
        const db = peak > 0 ? Math.max(METER_FLOOR_DB, 20 * Math.log10(peak)) : METER_FLOOR_DB;
        const hold = held[channel]!;
        if (db >= hold.db || now - hold.at > HOLD_MS) Object.assign(hold, { db, at: now });
        const fill = fills.current[channel];
        // The zones span the whole track; the level only uncovers them, so colours sit at fixed dB.
        if (fill) fill.style.clipPath = `inset(0 ${100 - meterPercent(db)}% 0 0)`;
        const marker = holds.current[channel];
        if (marker) {
          marker.style.left = `calc(${meterPercent(hold.db)}% - 2px)`;
          marker.style.background = meterColor(hold.db);
        }
        const readout = readouts.current[channel];
        if (readout) readout.textContent = meterReadout(hold.db);
      });
      frame = requestAnimationFrame(draw);
    });
    return () => cancelAnimationFrame(frame);
  }, [player]);

  return (
    <Stack gap={4} mt="sm" data-testid="peak-meter">
      {['L', 'R'].map((label, channel) => (
        <Group key={label} gap={8} wrap="nowrap">
          <Text size="xs" c="dimmed" w={10}>
            {label}
          </Text>
          <div className={classes.meter} style={{ flex: 1 }}>
            <div
              className={classes.meterFill}
              ref={(el) => void (fills.current[channel] = el)}
              style={{ background: GRADIENT, clipPath: 'inset(0 100% 0 0)' }}
            />
            <div className={classes.meterHold} ref={(el) => void (holds.current[channel] = el)} />
          </div>
          <Text size="xs" ff="monospace" c="dimmed" w={72} ta="right" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            <span ref={(el) => void (readouts.current[channel] = el)} data-testid={`peak-${label}`}>
              −∞
            </span>{' '}
            dB
          </Text>
        </Group>
      ))}
    </Stack>
  );
});
