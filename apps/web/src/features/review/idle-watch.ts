/**
 * Tells when a user has been inactive for `timeoutMs`, and
 * when they come back. While `busy()` holds (audio playing) the user is never idle.
 */
export class IdleWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private idle = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly handlers: { onIdle: () => void; onActive: () => void; busy: () => boolean },
  ) {}

  get isIdle(): boolean {
    return this.idle;
  }

  start(): void {
    this.arm();
  }

  /** Any input: back from idle if needed, and the countdown starts over. */
  activity(): void {
    if (this.idle) {
      this.idle = false;
      this.handlers.onActive();
    }
    this.arm();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    this.stop();
    this.timer = setTimeout(() => {
      if (this.handlers.busy()) return this.arm();
      this.idle = true;
      this.handlers.onIdle();
    }, this.timeoutMs);
  }
}
