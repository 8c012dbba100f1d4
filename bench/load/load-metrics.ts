// What the load run records: each call's latency by family, errors with their cause, realtime
// delivery delays, upload throughput, and each node's memory and event-loop delay over time.

export type Family =
  | 'sign-in'
  | 'listing'
  | 'search'
  | 'review'
  | 'comment'
  | 'upload'
  | 'transfer-send'
  | 'transfer-download'
  /** A guest's join to its first audible frame of the host's tone (media token, WHEP, ICE, decoding). */
  | 'live'
  /** One WHIP/WHEP connection attempt of a live stream: media token and offer/answer through the balancer. */
  | 'live-connect';

interface Sample {
  ms: number;
  ok: boolean;
  at: number;
}

export interface NodeSample {
  at: number;
  node: string;
  /** The node's process was running at the sample. */
  running: boolean;
  /** Its health check answered within the sampler's 5 s (the check asks the database and the store). */
  up: boolean;
  rssMb: number;
  loopP99Ms: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const round = (n: number) => Math.round(n * 10) / 10;

export class LoadMetrics {
  private readonly samples = new Map<Family, Sample[]>();
  readonly errors = new Map<string, number>();
  /** Every failure, when it happened (seconds since the start) and why. */
  private readonly failures: { at: number; what: string }[] = [];
  /** The injected faults, from their start to their end (seconds since the start). */
  readonly faults: { from: number; to: number }[] = [];
  readonly deliveries: number[] = [];
  readonly nodeSamples: NodeSample[] = [];
  readonly databaseConnections: { at: number; count: number }[] = [];
  uploadedBytes = 0;
  /** Users whose refresh token was refused and who signed in again with their password. */
  signedOutAgain = 0;
  /** Renewals that got no answer or a 5xx, tried again later with the same refresh token. */
  renewalsUnanswered = 0;
  uploadMs = 0;
  private readonly startedAt = performance.now();

  elapsedS(): number {
    return (performance.now() - this.startedAt) / 1000;
  }

  /** Times one call of a family; a throw counts as an error with its message, and is rethrown. */
  async time<T>(family: Family, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await work();
      this.record(family, performance.now() - started, true);
      return result;
    } catch (error) {
      this.record(family, performance.now() - started, false);
      const message = error instanceof Error ? error.message : String(error);
      const key = `${family}: ${message.slice(0, 90)}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      this.failures.push({ at: this.elapsedS(), what: key });
      throw error;
    }
  }

  private record(family: Family, ms: number, ok: boolean): void {
    const list = this.samples.get(family) ?? [];
    list.push({ ms, ok, at: this.elapsedS() });
    this.samples.set(family, list);
  }

  familyTable(): string {
    const rows = [...this.samples.entries()].map(([family, list]) => {
      const sorted = list
        .filter((s) => s.ok)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const failed = list.length - sorted.length;
      return `| ${family} | ${list.length} | ${round(percentile(sorted, 50))} | ${round(percentile(sorted, 95))} | ${round(percentile(sorted, 99))} | ${failed} |`;
    });
    return ['| family | calls | p50 ms | p95 ms | p99 ms | errors |', '|---|---|---|---|---|---|', ...rows].join('\n');
  }

  /** Errors by minute, to show they sit in the fault windows. */
  errorsByMinute(): string {
    const counts = new Map<number, number>();
    for (const list of this.samples.values())
      for (const sample of list)
        if (!sample.ok) counts.set(Math.floor(sample.at / 60), (counts.get(Math.floor(sample.at / 60)) ?? 0) + 1);
    return (
      [...counts.entries()]
        .sort(([a], [b]) => a - b)
        .map(([minute, n]) => `minute ${minute}: ${n}`)
        .join(', ') || 'none'
    );
  }

  /**
   * The failures that no fault explains: outside every fault's window, from its start to 30 s after
   * its end (requests that began during it, clients still reconnecting), each with its time.
   */
  errorsOutsideFaults(): string {
    const explained = (at: number) => this.faults.some((f) => at >= f.from && at <= f.to + 30);
    const outside = this.failures.filter((f) => !explained(f.at));
    if (outside.length === 0) return 'Errors outside the faults (each from its start to 30 s after its end): none.';
    return [
      `Errors outside the faults (each from its start to 30 s after its end): ${outside.length}.`,
      ...outside.map((f) => `- ${f.at.toFixed(1)} s: ${f.what}`),
    ].join('\n');
  }

  deliveryLine(): string {
    const sorted = [...this.deliveries].sort((a, b) => a - b);
    return `${sorted.length} deliveries, p50 ${round(percentile(sorted, 50))} ms, p95 ${round(percentile(sorted, 95))} ms, p99 ${round(percentile(sorted, 99))} ms`;
  }

  nodeTable(): string {
    const minutes = new Map<number, NodeSample[]>();
    for (const sample of this.nodeSamples) {
      const minute = Math.floor(sample.at / 60);
      minutes.set(minute, [...(minutes.get(minute) ?? []), sample]);
    }
    const names = [...new Set(this.nodeSamples.map((s) => s.node))];
    const header = `| minute | ${names.map((n) => `${n} RSS MB / loop p99 ms`).join(' | ')} | DB connections |`;
    const rows = [...minutes.entries()].map(([minute, samples]) => {
      const cells = names.map((name) => {
        const mine = samples.filter((s) => s.node === name);
        const up = mine.filter((s) => s.up);
        if (mine.every((s) => !s.running)) return 'down';
        if (up.length === 0) return 'no health answer';
        const rss = Math.max(...up.map((s) => s.rssMb));
        const loop = Math.max(...up.map((s) => s.loopP99Ms));
        return `${Math.round(rss)} / ${round(loop)}${up.length < mine.length ? ' (down or silent part)' : ''}`;
      });
      const db = this.databaseConnections.filter((d) => Math.floor(d.at / 60) === minute).map((d) => d.count);
      return `| ${minute} | ${cells.join(' | ')} | ${db.length ? Math.max(...db) : '-'} |`;
    });
    return [header, `|---|${names.map(() => '---|').join('')}---|`, ...rows].join('\n');
  }
}
