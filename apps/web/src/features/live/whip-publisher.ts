import { LOSSLESS_CHANNEL_LABEL } from '@mixroom/shared';
import { STREAMING_MESSAGES, StreamingClient, type MediaGrant, type StreamingOptions } from './streaming-client';

export interface PublishOptions {
  mediaStream: MediaStream | null | undefined;
  /** Opus target in bit/s (the server writes it into its answer; the sender is capped to it too). */
  bitrate: number;
}

/**
 * WHIP: one stereo audio track, sendonly; in lossless mode (asked for, and the grant allows it) also
 * an ordered, reliable data channel for PCM frames, which the SFU relays to every listener.
 */
export class Publisher extends StreamingClient {
  private track: MediaStreamTrack | null = null;
  private stream: MediaStream | null = null;
  private bitrate = 128_000;
  private wantLossless = false;
  private channel: RTCDataChannel | null = null;
  /** Whether the last grant allowed lossless mode (the host's plan); null before the first grant. */
  losslessAllowed: boolean | null = null;

  constructor(
    options: StreamingOptions,
    /** Called with the bitrate of the connection being made, so the grant can carry it. */
    private readonly onBitrate?: (bitrate: number) => void,
    /** Called with each grant's word on lossless mode. */
    private readonly onGrant?: (losslessAllowed: boolean) => void,
  ) {
    super(options);
  }

  get currentBitrate(): number {
    return this.bitrate;
  }

  async publish(options: PublishOptions): Promise<void> {
    if (!options.mediaStream) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    if (this.isActive) throw new Error(STREAMING_MESSAGES.broadcastWorking);
    this.useStream(options.mediaStream, options.bitrate);
    await this.start();
  }

  private useStream(stream: MediaStream, bitrate: number): void {
    const track = stream.getAudioTracks()[0];
    if (!track) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    this.stream = stream;
    this.track = track;
    this.bitrate = bitrate;
    this.onBitrate?.(bitrate);
  }

  protected preparePeer(peer: RTCPeerConnection, grant: MediaGrant): void {
    if (!this.track || !this.stream) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    peer.addTransceiver(this.track, { direction: 'sendonly', streams: [this.stream] });
    this.losslessAllowed = grant.lossless ?? false;
    this.channel = null;
    if (this.wantLossless && this.losslessAllowed) {
      this.channel = peer.createDataChannel(LOSSLESS_CHANNEL_LABEL, { ordered: true });
      this.channel.binaryType = 'arraybuffer';
    }
    this.onGrant?.(this.losslessAllowed);
  }

  /** The lossless channel of the newest connection, once open. */
  get losslessChannel(): RTCDataChannel | null {
    return this.channel?.readyState === 'open' ? this.channel : null;
  }

  /** Turns lossless mode on or off; a running stream republishes (with or without the channel). */
  async setLossless(on: boolean): Promise<void> {
    if (this.wantLossless === on) return;
    this.wantLossless = on;
    if (this.isActive && this.stream) await this.republish({ mediaStream: this.stream, bitrate: this.bitrate });
  }

  protected override onConnected(peer: RTCPeerConnection): void {
    // The answer's maxaveragebitrate sets the encoder; the sender's cap keeps it there.
    for (const sender of peer.getSenders()) {
      if (!sender.track) continue;
      const parameters = sender.getParameters();
      if (!parameters.encodings?.length) continue;
      parameters.encodings[0]!.maxBitrate = this.bitrate;
      void sender.setParameters(parameters).catch(() => undefined);
    }
  }

  /**
   * Republishes with another source or quality. The server keeps the participant's slot for the
   * new stream, so listeners hear it without reconnecting.
   */
  async republish(options: PublishOptions): Promise<void> {
    if (!options.mediaStream) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    this.useStream(options.mediaStream, options.bitrate);
    if (!this.isActive) return this.start();
    await this.renegotiate();
  }

  async updateBitrate(bitrate: number): Promise<void> {
    if (!this.stream) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    await this.republish({ mediaStream: this.stream, bitrate });
  }
}
