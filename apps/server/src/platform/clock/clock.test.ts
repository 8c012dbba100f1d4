import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for';
import { MAX_TIMEOUT_MS, systemClock, TestClock } from './clock';

const T0 = new Date('2026-01-01T00:00:00.000Z');

describe('TestClock timers', () => {
  it('fires a timer when the clock passes its time, and not before', () => {
    const clock = new TestClock(T0);
    const fired: Date[] = [];
    clock.setTimer(new Date(T0.getTime() + 1000), () => fired.push(clock.now()));
    clock.advance(999);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([new Date(T0.getTime() + 1000)]);
    clock.advance(10_000);
    expect(fired).toHaveLength(1);
  });

  it('fires passed timers in time order, each seeing its own time, and set() fires them too', () => {
    const clock = new TestClock(T0);
    const order: string[] = [];
    clock.after(300, () => order.push(`c@${clock.now().getTime() - T0.getTime()}`));
    clock.after(100, () => order.push(`a@${clock.now().getTime() - T0.getTime()}`));
    clock.after(100, () => order.push(`b@${clock.now().getTime() - T0.getTime()}`));
    clock.after(500, () => order.push('late'));
    clock.set(new Date(T0.getTime() + 400));
    expect(order).toEqual(['a@100', 'b@100', 'c@300']);
    expect(clock.now()).toEqual(new Date(T0.getTime() + 400));
    expect(clock.pendingCount).toBe(1);
  });

  it('does not fire a cancelled timer', () => {
    const clock = new TestClock(T0);
    const fn = vi.fn();
    const timer = clock.after(50, fn);
    timer.cancel();
    clock.advance(100);
    expect(fn).not.toHaveBeenCalled();
    expect(clock.pendingCount).toBe(0);
  });

  it('fires timers set during a firing for a time already passed by the same move', () => {
    const clock = new TestClock(T0);
    const order: string[] = [];
    clock.after(100, () => {
      order.push('first');
      clock.after(50, () => order.push('chained'));
      clock.setTimer(T0, () => order.push('overdue'));
      clock.after(1000, () => order.push('later'));
    });
    clock.advance(200);
    expect(order).toEqual(['first', 'overdue', 'chained']);
    clock.advance(1000);
    expect(order).toEqual(['first', 'overdue', 'chained', 'later']);
  });

  it('fires a timer for a time already past on the next move', () => {
    const clock = new TestClock(T0);
    const fn = vi.fn();
    clock.setTimer(new Date(T0.getTime() - 1), fn);
    expect(fn).not.toHaveBeenCalled();
    clock.advance(0);
    expect(fn).toHaveBeenCalledOnce();
  });
});

describe('systemClock timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires a real timer after a short delay', async () => {
    let fired = false;
    systemClock.after(20, () => {
      fired = true;
    });
    await waitFor(() => fired, { what: 'the system timer' });
  });

  it('does not fire a cancelled real timer', async () => {
    let cancelledFired = false;
    let laterFired = false;
    systemClock.after(10, () => (cancelledFired = true)).cancel();
    systemClock.after(30, () => (laterFired = true));
    await waitFor(() => laterFired, { what: 'the later timer' });
    expect(cancelledFired).toBe(false);
  });

  it('re-arms a delay longer than setTimeout allows instead of firing early', () => {
    vi.useFakeTimers({ now: T0 });
    const fn = vi.fn();
    systemClock.after(MAX_TIMEOUT_MS + 5000, fn);
    vi.advanceTimersByTime(MAX_TIMEOUT_MS);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(4999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
  });
});
