import { LIVE_AUDIO_CHANNELS } from '@mixroom/shared';
import { StreamingFetchError, Viewer, type MediaGrant, type StreamState } from '../live';

const SILENCE_DB = -120;

/**
 * A listener's player outside React: the WHEP viewer (its reconnects with backoff when the stream
 * drops), and the audio path made on the first click as autoplay rules want: the received track
 * through a volume gain to the speakers, with an analyser for the level meter.
 */
export class PublicPlayer {
  readonly context: AudioContext;
  private readonly gain: GainNode;
  private readonly analyser: AnalyserNode;
  private readonly buffer = new Float32Array(2048);
  private viewer: Viewer | null = null;
  private element: HTMLAudioElement | null = null;
  private source: MediaStreamAudioSourceNode | null = null;

  constructor(
    private readonly grant: () => Promise<MediaGrant>,
    private readonly onState: (state: StreamState) => void,
  ) {
    this.context = new AudioContext({ sampleRate: 48_000, latencyHint: 'playback' });
    this.gain = this.context.createGain();
    this.gain.channelCount = LIVE_AUDIO_CHANNELS;
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.gain.connect(this.analyser);
    this.gain.connect(this.context.destination);
    void this.context.resume();
  }

  async play(): Promise<void> {
    if (this.viewer) return;
    this.viewer = new Viewer({ tokenGenerator: this.grant, onState: this.onState }, ({ stream }) =>
      this.attach(stream),
    );
    await this.viewer.view({ slots: 1 });
  }

  /** 0..1 of full scale. */
  setVolume(volume: number): void {
    this.gain.gain.setTargetAtTime(Math.max(0, Math.min(1, volume)), this.context.currentTime, 0.02);
  }

  /** The level (dBFS) of what plays, after the volume. */
  level(): number {
    this.analyser.getFloatTimeDomainData(this.buffer);
    let sum = 0;
    for (const sample of this.buffer) sum += sample * sample;
    const rms = Math.sqrt(sum / this.buffer.length);
    return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
  }

  get peer(): RTCPeerConnection | null {
    return this.viewer?.peer ?? null;
  }

  stop(): void {
    this.viewer?.stop();
    this.viewer = null;
    this.detach();
  }

  destroy(): void {
    this.stop();
    void this.context.close().catch(() => undefined);
  }

  private attach(stream: MediaStream): void {
    this.detach();
    // Chromium feeds a remote track into Web Audio only while a media element also consumes it.
    this.element = new Audio();
    this.element.srcObject = stream;
    this.element.muted = true;
    void this.element.play().catch(() => undefined);
    this.source = this.context.createMediaStreamSource(stream);
    this.source.connect(this.gain);
  }

  private detach(): void {
    this.source?.disconnect();
    this.source = null;
    if (this.element) this.element.srcObject = null;
    this.element = null;
  }
}

/** A code that leads nowhere any more stops the reconnects (as a 401 does) instead of hammering. */
export function goneAsUnauthorized(error: unknown): never {
  const status = (error as { status?: number }).status;
  if (status === 404 || status === 429) throw new StreamingFetchError(401, 'This broadcast is gone.');
  throw error instanceof Error ? error : new Error(String(error));
}
