import { describe, expect, it } from 'vitest';
import { formatClock, LABEL_PAD_PX, labelStep, labelWidth, rulerTicks } from './ruler-ticks';

const CHAR_PX = 7;
const labelsOf = (ticks: ReturnType<typeof rulerTicks>) => ticks.filter((t) => t.label !== null);

/** Where each label's text lies on the ruler, in pixels, by the side of its tick it sits on. */
const boxesOf = (ticks: ReturnType<typeof rulerTicks>) =>
  labelsOf(ticks).map((t) => {
    const width = labelWidth(t.label!);
    const left = t.align === 'end' ? t.x - LABEL_PAD_PX - width : t.x + LABEL_PAD_PX;
    return { label: t.label!, seconds: t.seconds, left, right: left + width };
  });

/** The whole ruler of a file drawn `width` pixels wide. */
const wholeRuler = (duration: number, width: number) =>
  rulerTicks({ pxPerSecond: width / duration, duration, from: 0, to: duration });

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

  it('labels a 0:30 file at desktop width up to 0:30, the last label ending where the waveform ends', () => {
    // 722 px: the waveform of a 0:30 file beside the comments at 1440 px.
    const boxes = boxesOf(wholeRuler(30, 722));
    expect(boxes.map((b) => b.label)).toEqual(['0:00', '0:05', '0:10', '0:15', '0:20', '0:25', '0:30']);
    expect(boxes.at(-1)!.right).toBe(722 - LABEL_PAD_PX);
  });

  it('ends every ruler with a label near the end, inside the ruler and clear of its neighbour', () => {
    const durations = [5, 12, 26, 29.98, 30, 31, 34, 59, 61, 90, 179, 600, 601, 3599, 3600, 3 * 3600 + 17];
    for (const duration of durations)
      for (const width of [300, 348, 420, 722, 900, 1100, 1440, 4000]) {
        const pxPerSecond = width / duration;
        const spacing = labelStep(pxPerSecond, duration) * pxPerSecond;
        const boxes = boxesOf(wholeRuler(duration, width));
        const at = `${duration} s over ${width} px`;
        expect(boxes.length, at).toBeGreaterThan(1);
        expect(boxes[0]!.left, at).toBeGreaterThanOrEqual(0);
        expect(boxes.at(-1)!.right, at).toBeLessThanOrEqual(width);
        // Near the end: less than one label spacing of ruler after the last label's text.
        expect(width - boxes.at(-1)!.right, at).toBeLessThan(spacing);
        for (let i = 1; i < boxes.length; i++)
          expect(boxes[i]!.left - boxes[i - 1]!.right, at).toBeGreaterThanOrEqual(8);
      }
  });

  it('keeps the step of the zoom when the end of the file already has its label', () => {
    // 33.5 s at 24 px/s: every 2 s, 0:32's label fitting after its tick before the waveform ends.
    expect(labelStep(24, 33.5)).toBe(2);
    expect(boxesOf(wholeRuler(33.5, 33.5 * 24)).at(-1)).toMatchObject({ label: '0:32', right: 32 * 24 + 4 + 28 });
    // An hour zoomed to 250 px/s keeps its 1 s labels, the last one before 1:00:00's tick.
    const end = rulerTicks({ pxPerSecond: 250, duration: 3600, from: 3597, to: 3600 });
    expect(labelsOf(end).map((t) => [t.label, t.align])).toEqual([
      ['0:59:57', 'start'],
      ['0:59:58', 'start'],
      ['0:59:59', 'start'],
      ['1:00:00', 'end'],
    ]);
  });

  it('computes only the ticks in view, so a zoomed hour costs what a short file does', () => {
    const ticks = rulerTicks({ pxPerSecond: 500, duration: 3600, from: 3000, to: 3003 });
    expect(ticks.length).toBeLessThan(20);
    expect(ticks.every((t) => t.seconds >= 3000 && t.seconds <= 3003)).toBe(true);
    expect(rulerTicks({ pxPerSecond: 0, duration: 3600, from: 0, to: 10 })).toEqual([]);
  });
});
