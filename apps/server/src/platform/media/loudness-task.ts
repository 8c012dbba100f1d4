import type { Loudness } from './ffmpeg';
import { gatedLoudness, joinSegments } from './loudness-gating';
import type { PcmFormat } from './loudness-meter';
import { splitForMeters } from './loudness-parts';
import { MeterThread } from './meter-thread';

/**
 * Loudness and true peak measured on threads of their own, so the pass that makes the waveform
 * (and with it "ready for review") is not held up by the meter, the heavier of the two. A local
 * PCM WAV is split into parts metered side by side, each thread reading its own bytes (see
 * loudness-parts.ts); any other source feeds one meter the PCM of the decode that makes the peaks
 * as it streams, held back while the meter is behind (see meter-thread.ts).
 */
export class LoudnessTask {
  /** The measurements; rejects when a worker fails or is stopped. */
  readonly result: Promise<Loudness>;

  private constructor(private readonly threads: MeterThread[]) {
    this.result = Promise.all(threads.map((thread) => thread.result)).then((parts) =>
      gatedLoudness(joinSegments(parts)),
    );
    // A caller that stops reading early must not leave an unhandled rejection behind.
    this.result.catch(() => undefined);
  }

  /** Threads read the sample bytes of a local PCM WAV themselves, `parts` of them at most. */
  static ofFile(format: PcmFormat, file: { path: string; start: number; length: number }, parts = 1): LoudnessTask {
    return new LoudnessTask(splitForMeters(format, file, parts).map((range) => new MeterThread(format, range)));
  }

  /** The caller posts the PCM (`push`) as its decode streams, then `end`s. */
  static fed(format: PcmFormat): LoudnessTask {
    return new LoudnessTask([new MeterThread(format)]);
  }

  /** Posts a copy of `chunk`; false once the meter is behind by more than the limit (see `drained`). */
  push(chunk: Buffer): boolean {
    return this.threads[0]!.push(chunk);
  }

  /** Resolves once the meter has caught up to half the limit (or has stopped). */
  drained(): Promise<void> {
    return this.threads[0]!.drained();
  }

  end(): void {
    this.threads[0]!.end();
  }

  /** Stops the meters (the job failed or the version is corrupt). */
  async stop(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.stop()));
  }
}
