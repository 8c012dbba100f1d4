import { Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, type RefObject } from 'react';

const FLOOR_DB = -60;
const HOLD_MS = 1500;
const percent = (db: number) => Math.max(0, Math.min(100, ((db - FLOOR_DB) / -FLOOR_DB) * 100));
const readout = (db: number) => (db <= FLOOR_DB ? '−∞' : db.toFixed(1));
const GRADIENT = 'linear-gradient(90deg, #2f9e44 0%, #2f9e44 70%, #f59f00 85%, #e03131 100%)';

/** One audio graph per element: an element can feed only one source node, ever. */
const graphs = new WeakMap<HTMLMediaElement, { context: AudioContext; analysers: AnalyserNode[] }>();

function graphOf(media: HTMLMediaElement) {
  let graph = graphs.get(media);
  if (graph) return graph;
  const context = new AudioContext();
  const source = context.createMediaElementSource(media);
  source.connect(context.destination);
  const splitter = context.createChannelSplitter(2);
  source.connect(splitter);
  const analysers = [0, 1].map((channel) => {
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    splitter.connect(analyser, channel);
    return analyser;
  });
  graph = { context, analysers };
  graphs.set(media, graph);
  return graph;
}

/** Sample-peak meter per channel (dBFS) with a peak hold, read from what the element plays. */
export function PeakMeter({ media }: { media: RefObject<HTMLAudioElement | null> }) {
  const fills = useRef<(HTMLDivElement | null)[]>([]);
  const readouts = useRef<(HTMLSpanElement | null)[]>([]);

  useEffect(() => {
    const element = media.current;
    if (!element || typeof AudioContext === 'undefined') return;
    let graph: ReturnType<typeof graphOf>;
    try {
      graph = graphOf(element);
    } catch {
      return;
    }
    const resume = () => void graph.context.resume();
    element.addEventListener('play', resume);
    const buffer = new Float32Array(2048);
    const held = graph.analysers.map(() => ({ db: FLOOR_DB, at: 0 }));
    let frame = requestAnimationFrame(function draw(now) {
      graph.analysers.forEach((analyser, channel) => {
        analyser.getFloatTimeDomainData(buffer);
        let peak = 0;
        for (const sample of buffer) peak = Math.max(peak, Math.abs(sample));
        const db = peak > 0 ? Math.max(FLOOR_DB, 20 * Math.log10(peak)) : FLOOR_DB;
        const hold = held[channel]!;
        if (db >= hold.db || now - hold.at > HOLD_MS) Object.assign(hold, { db, at: now });
        const fill = fills.current[channel];
        if (fill) fill.style.clipPath = `inset(0 ${100 - percent(db)}% 0 0)`;
        const text = readouts.current[channel];
        if (text) text.textContent = readout(hold.db);
      });
      frame = requestAnimationFrame(draw);
    });
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('play', resume);
    };
  }, [media]);

  return (
    <Stack gap={4} data-testid="tools-peak-meter" aria-label="Peak meter">
      {['L', 'R'].map((label, channel) => (
        <Group key={label} gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed" w={10}>
            {label}
          </Text>
          <div
            style={{
              flex: 1,
              height: 6,
              borderRadius: 3,
              background: 'var(--mantine-color-dark-5)',
              overflow: 'hidden',
            }}
          >
            <div
              ref={(el) => {
                fills.current[channel] = el;
              }}
              style={{ height: '100%', background: GRADIENT, clipPath: 'inset(0 100% 0 0)' }}
            />
          </div>
          <Text
            component="span"
            size="xs"
            c="dimmed"
            ff="monospace"
            w={40}
            ta="right"
            ref={(el: HTMLSpanElement | null) => {
              readouts.current[channel] = el;
            }}
          >
            −∞
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
