import { Group, Stack, Text } from '@mantine/core';
import { memo, useEffect, useRef } from 'react';
import { usePlayer } from '../hooks/use-player';
import classes from './review.module.css';

const FLOOR_DB = -60;
const HOLD_MS = 1500;
const graphs = new WeakMap<HTMLMediaElement, { context: AudioContext; analysers: AnalyserNode[] }>();

/** A media element can feed only one Web Audio source, ever: build the graph once per element. */
function graphFor(media: HTMLMediaElement) {
  const existing = graphs.get(media);
  if (existing) return existing;
  const context = new AudioContext();
  const source = context.createMediaElementSource(media);
  const splitter = context.createChannelSplitter(2);
  source.connect(context.destination);
  source.connect(splitter);
  const analysers = [0, 1].map((channel) => {
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    splitter.connect(analyser, channel);
    return analyser;
  });
  const graph = { context, analysers };
  graphs.set(media, graph);
  return graph;
}

const toPercent = (db: number) => Math.max(0, Math.min(100, ((db - FLOOR_DB) / -FLOOR_DB) * 100));

/** Sample-peak meter per channel (dBFS) with a peak hold, read from the playing audio. */
export const PeakMeter = memo(function PeakMeter() {
  const player = usePlayer();
  const fills = useRef<(HTMLDivElement | null)[]>([]);
  const holds = useRef<(HTMLDivElement | null)[]>([]);
  const readouts = useRef<(HTMLSpanElement | null)[]>([]);

  useEffect(() => {
    if (!player) return;
    const { context, analysers } = graphFor(player.media);
    void context.resume();
    const buffer = new Float32Array(2048);
    const held = analysers.map(() => ({ db: FLOOR_DB, at: 0 }));
    let frame = requestAnimationFrame(function draw(now) {
      analysers.forEach((analyser, channel) => {
        analyser.getFloatTimeDomainData(buffer);
        let peak = 0;
        for (const sample of buffer) peak = Math.max(peak, Math.abs(sample));
        const db = peak > 0 ? Math.max(FLOOR_DB, 20 * Math.log10(peak)) : FLOOR_DB;
        const hold = held[channel]!;
        if (db >= hold.db || now - hold.at > HOLD_MS) Object.assign(hold, { db, at: now });
        const fill = fills.current[channel];
        if (fill) fill.style.width = `${toPercent(db)}%`;
        const marker = holds.current[channel];
        if (marker) marker.style.left = `calc(${toPercent(hold.db)}% - 2px)`;
        const readout = readouts.current[channel];
        if (readout) readout.textContent = hold.db <= FLOOR_DB ? '−∞' : hold.db.toFixed(1);
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
            <div className={classes.meterFill} ref={(el) => void (fills.current[channel] = el)} style={{ width: 0 }} />
            <div className={classes.meterHold} ref={(el) => void (holds.current[channel] = el)} />
          </div>
          <Text size="xs" ff="monospace" c="dimmed" w={44} ta="right">
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
