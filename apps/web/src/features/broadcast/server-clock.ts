import { liveCountdownLabel } from '@mixroom/shared';
import { useEffect, useState } from 'react';

/**
 * The server's time as this device can tell it: the offset between the server's clock (sent with
 * every answer) and the device's, taken when the answer came. Countdowns count on it, so a device
 * whose clock is off still shows the same moment as everyone else.
 */
export function serverOffset(serverTime: number, receivedAt: number = Date.now()): number {
  return serverTime - receivedAt;
}

/** "LIVE IN d h m s", then "LIVE STARTED"; null without a countdown. Ticks every second. */
export function useCountdownLabel(countdownTime: number | null | undefined, offset: number): string | null {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    if (countdownTime == null) return;
    const tick = () => setNow(Date.now() + offset);
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [countdownTime, offset]);
  return countdownTime == null ? null : liveCountdownLabel(countdownTime - now);
}

/** An answer with the device's offset from the server's clock, taken when it arrived. */
export function withOffset<T extends { serverTime: number }>(answer: T): T & { offset: number } {
  return { ...answer, offset: serverOffset(answer.serverTime) };
}

/** A date-time input's value (local time, minutes) for epoch ms, and back. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}
