import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METER_HZ, onMeterFrame } from './meter-ticker';

/** A display that the test steps: each `frame(ms)` runs the callbacks asked for since the last one. */
let pending = new Map<number, (now: number) => void>();
let nextId = 1;
const globals = globalThis as unknown as {
  requestAnimationFrame?: (callback: (now: number) => void) => number;
  cancelAnimationFrame?: (id: number) => void;
};
function frame(now: number): void {
  const due = pending;
  pending = new Map();
  for (const callback of due.values()) callback(now);
}

beforeEach(() => {
  pending = new Map();
  globals.requestAnimationFrame = (callback) => {
    pending.set(nextId, callback);
    return nextId++;
  };
  globals.cancelAnimationFrame = (id) => void pending.delete(id);
});
afterEach(() => {
  delete globals.requestAnimationFrame;
  delete globals.cancelAnimationFrame;
});

describe('the shared meter loop', () => {
  it('draws every meter at 30 Hz on a 60 Hz display, and on a 144 Hz one, from one animation frame request', () => {
    let a = 0;
    let b = 0;
    const stopA = onMeterFrame(() => a++);
    const stopB = onMeterFrame(() => b++);
    expect(pending.size).toBe(1);
    for (let i = 1; i <= 60; i++) frame(i * (1000 / 60));
    expect(a).toBe(METER_HZ);
    expect(b).toBe(METER_HZ);
    a = 0;
    for (let i = 1; i <= 144; i++) frame(1000 + i * (1000 / 144));
    // Never faster than 30 Hz; at 144 Hz every fifth frame (28.8 a second) is the nearest below.
    expect(a).toBeGreaterThanOrEqual(28);
    expect(a).toBeLessThanOrEqual(METER_HZ);
    stopA();
    stopB();
  });

  it('stops asking for frames when the last meter goes, and starts again with the next', () => {
    let drawn = 0;
    const stop = onMeterFrame(() => drawn++);
    frame(5000);
    stop();
    expect(pending.size).toBe(0);
    frame(5100);
    expect(drawn).toBe(1);
    const again = onMeterFrame(() => drawn++);
    expect(pending.size).toBe(1);
    frame(5200);
    expect(drawn).toBe(2);
    again();
  });
});
