import type { Clock, Timer } from '../clock/clock';

/**
 * Declares a peer dead when it has shown no sign of life for `timeoutMs` of clock time. werift only
 * notices a vanished peer when ICE consent expires (~30 s), and a browser tab that is killed sends
 * no DELETE: rooms would carry ghosts. Signs of life are cheap to record (a clock read per packet);
 * the check runs on the clock's timers, so tests move a TestClock past the timeout instead of waiting.
 */
export class PeerWatchdog {
  private lastSign: number;
  private timer: Timer | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly onDead: () => void,
  ) {
    this.lastSign = clock.now().getTime();
    this.arm(timeoutMs);
  }

  /** A sign of life: a packet, a STUN check, an RTCP report. */
  touch(): void {
    this.lastSign = this.clock.now().getTime();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private arm(ms: number): void {
    this.timer = this.clock.after(ms, () => this.check());
  }

  private check(): void {
    if (this.stopped) return;
    const silentFor = this.clock.now().getTime() - this.lastSign;
    if (silentFor >= this.timeoutMs) {
      this.stopped = true;
      this.onDead();
      return;
    }
    this.arm(this.timeoutMs - silentFor);
  }
}
