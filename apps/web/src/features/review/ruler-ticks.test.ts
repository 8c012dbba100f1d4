import { describe, expect, it } from 'vitest';
import { formatClock, labelStep, rulerTicks } from './ruler-ticks';

const CHAR_PX = 7;
const labelsOf = (ticks: ReturnType<typeof rulerTicks>) => ticks.filter((t) => t.label !== null);

describe('the time ruler', () => {
  it('writes one clock format per file: m:ss under an hour, h:mm:ss from an hour on', () => {
    expect(formatClock(0, false)).toBe('0:00');
    expect(formatClock(90, false)).toBe('1:30');
    expect(formatClock(59 * 60 + 59, false)).toBe('59:59');
    expect(formatClock(0, true)).toBe('0:00:00');
    expect(formatClock(1800, true)).toBe('0:30:00');
    expect(formatClock(3723, true)).toBe('1:02:03');
  });

  it('labels an hour zoomed to 250 px/s every second, around the 30th minute, in h:mm:ss', () => {
    expect(labelStep(250, 3600)).toBe(1);
    const ticks = rulerTicks({ pxPerSecond: 250, duration: 3600, from: 1798.5, to: 1801.5 });
    expect(labelsOf(ticks).map((t) => t.label)).toEqual(['0:29:59', '0:30:00', '0:30:01']);
    expect(labelsOf(ticks)[1]!.x).toBe(1800 * 250);
    // Quarter-second minor ticks between the labels.
    expect(ticks.filter((t) => t.label === null && t.seconds > 1799 && t.seconds < 1800).map((t) => t.seconds)).toEqual(
      [1799.25, 1799.5, 1799.75],
    );
  });

  it('never lets labels touch, and never mixes formats, at any zoom of short and long files', () => {
    for (const duration of [12, 600, 3600, 3 * 3600]) {
      const pattern = duration >= 3600 ? /^\d+:\d\d:\d\d$/ : /^\d+:\d\d$/;
      for (const pxPerSecond of [1200 / duration, 360 / duration, 5, 25, 50, 250, 500]) {
        const labels = labelsOf(
          rulerTicks({ pxPerSecond, duration, from: 0, to: Math.min(duration, 4000 / pxPerSecond) }),
        );
        expect(labels.length).toBeGreaterThan(0);
        for (const label of labels) expect(label.label).toMatch(pattern);
        for (let i = 1; i < labels.length; i++)
          expect(labels[i]!.x - labels[i - 1]!.x).toBeGreaterThan(labels[i - 1]!.label!.length * CHAR_PX + 8);
      }
    }
  });

  it('computes only the ticks in view, so a zoomed hour costs what a short file does', () => {
    const ticks = rulerTicks({ pxPerSecond: 500, duration: 3600, from: 3000, to: 3003 });
    expect(ticks.length).toBeLessThan(20);
    expect(ticks.every((t) => t.seconds >= 3000 && t.seconds <= 3003)).toBe(true);
    expect(rulerTicks({ pxPerSecond: 0, duration: 3600, from: 0, to: 10 })).toEqual([]);
  });
});
