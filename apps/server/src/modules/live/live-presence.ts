import type { EventData } from '@mixroom/contracts';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../../platform/clock/clock';

/** How long a participant may be gone from the room (a reload, a dropped network) before it counts as away. */
export const LIVE_AWAY_GRACE_MS = 60_000;

export interface LivePresenceDeps {
  clock: Clock;
  log: Logger;
  /** The participant has had no socket in the room for the grace period. */
  away: (code: string, userId: string) => Promise<void>;
}

/**
 * Notices participants who left without saying so (a closed tab), from the holder-level presence
 * events of scope `room` under `live:{code}` that cross the bus: once a user's last socket is gone
 * and stays gone for the grace period (on the Clock), the room treats them as away: a guest goes
 * offline and its peers are dropped; the host's session ends, so an abandoned room stops counting
 * minutes. Every node sees every event; ending a session twice is harmless.
 */
export class LivePresence {
  private readonly holders = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Timer>();

  constructor(private readonly deps: LivePresenceDeps) {}

  async onPresence(topic: string, data: EventData<'presence.changed'>): Promise<void> {
    if (!topic.startsWith('live:') || data.scope !== 'room' || !data.holder) return;
    const code = topic.slice('live:'.length);
    const key = `${code}\u0000${data.user.id}`;
    const held = this.holders.get(key) ?? new Set<string>();
    if (data.state === 'online') {
      held.add(data.holder);
      this.holders.set(key, held);
      this.pending.get(key)?.cancel();
      this.pending.delete(key);
      return;
    }
    held.delete(data.holder);
    if (held.size > 0) return;
    this.holders.delete(key);
    this.pending.get(key)?.cancel();
    this.pending.set(
      key,
      this.deps.clock.after(LIVE_AWAY_GRACE_MS, () => {
        this.pending.delete(key);
        if (this.holders.has(key)) return;
        void this.deps
          .away(code, data.user.id)
          .catch((error: unknown) => this.deps.log.warn({ err: error }, 'a live participant could not be set away'));
      }),
    );
  }

  stop(): void {
    for (const timer of this.pending.values()) timer.cancel();
    this.pending.clear();
  }
}
