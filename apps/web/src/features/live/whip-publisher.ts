import { STREAMING_MESSAGES, StreamingClient, type StreamingOptions } from './streaming-client';

export interface PublishOptions {
  mediaStream: MediaStream | null | undefined;
  /** Opus target in bit/s (the server writes it into its answer; the sender is capped to it too). */
  bitrate: number;
}

/** WHIP: one stereo audio track, sendonly. */
export class Publisher extends StreamingClient {
  private track: MediaStreamTrack | null = null;
  private stream: MediaStream | null = null;
  private bitrate = 128_000;

  constructor(
    options: StreamingOptions,
    /** Called with the bitrate of the connection being made, so the grant can carry it. */
    private readonly onBitrate?: (bitrate: number) => void,
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

  protected preparePeer(peer: RTCPeerConnection): void {
    if (!this.track || !this.stream) throw new Error(STREAMING_MESSAGES.mediaStreamRequired);
    peer.addTransceiver(this.track, { direction: 'sendonly', streams: [this.stream] });
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
