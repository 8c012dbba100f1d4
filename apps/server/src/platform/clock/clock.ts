/** Where "now" comes from. Time-dependent rules take a Clock so tests can move time instead of waiting. */
export interface Clock {
  now(): Date;
  /** Runs `fn` once the clock reaches `at`; a time already passed fires soon (system) or on the next move (test). */
  setTimer(at: Date, fn: () => void): Timer;
  /** Runs `fn` once `ms` of clock time have passed. */
  after(ms: number, fn: () => void): Timer;
}

export interface Timer {
  cancel(): void;
}

/** setTimeout's delay is a signed 32-bit count; longer waits are re-armed in steps of at most this. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function systemTimer(at: Date, fn: () => void): Timer {
  let handle: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (): void => {
    if (cancelled) return;
    const remaining = at.getTime() - Date.now();
    if (remaining > MAX_TIMEOUT_MS) {
      handle = setTimeout(arm, MAX_TIMEOUT_MS);
      handle.unref();
      return;
    }
    handle = setTimeout(
      () => {
        if (!cancelled) fn();
      },
      Math.max(0, remaining),
    );
    // A pending timer must not keep the process alive on shutdown.
    handle.unref();
  };
  arm();
  return {
    cancel: () => {
      cancelled = true;
      if (handle) clearTimeout(handle);
    },
  };
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer: systemTimer,
  after: (ms, fn) => systemTimer(new Date(Date.now() + ms), fn),
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that stands still until a test moves it; moving it fires the timers it passes, in time order. */
export class TestClock implements Clock {
  private current: number;
  private pending: PendingTimer[] = [];
  private seq = 0;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(at: Date, fn: () => void): Timer {
    const timer: PendingTimer = { at: at.getTime(), seq: this.seq++, fn, cancelled: false };
    this.pending.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
        this.pending = this.pending.filter((t) => t !== timer);
      },
    };
  }

  after(ms: number, fn: () => void): Timer {
    return this.setTimer(new Date(this.current + ms), fn);
  }

  /** Timers not yet fired or cancelled. */
  get pendingCount(): number {
    return this.pending.length;
  }

  advance(ms: number): void {
    this.moveTo(this.current + ms);
  }

  set(to: Date): void {
    this.moveTo(to.getTime());
  }

  /** Fires due timers one by one; each sees `now()` at its own time, and timers it sets are due-checked too. */
  private moveTo(target: number): void {
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.pending = this.pending.filter((t) => t !== next);
      // Never move backwards: a timer already overdue fires at the present time.
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = target;
  }

  private nextDue(target: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.pending) {
      if (t.cancelled || t.at > target) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
