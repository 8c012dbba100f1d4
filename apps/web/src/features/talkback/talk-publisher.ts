import { StreamingClient, type MediaGrant } from '../live';

/** Voice over Opus: the server answers with this bitrate too. */
export const TALKBACK_BITRATE = 32_000;

/**
 * Talkback WHIP: the processed microphone, plus a video transceiver that carries the camera while it
 * is on. The camera goes on and off by swapping the sender's track, so turning it on never
 * renegotiates and the voice never drops.
 */
export class TalkPublisher extends StreamingClient {
  private video: RTCRtpTransceiver | null = null;
  private camera: MediaStreamTrack | null = null;

  constructor(
    private readonly mic: MediaStream,
    options: ConstructorParameters<typeof StreamingClient>[0],
  ) {
    super(options);
  }

  protected preparePeer(peer: RTCPeerConnection, _grant: MediaGrant): void {
    const voice = this.mic.getAudioTracks()[0];
    if (!voice) throw new Error('MediaStream required');
    peer.addTransceiver(voice, { direction: 'sendonly', streams: [this.mic] });
    this.video = peer.addTransceiver(this.camera ?? 'video', { direction: 'sendonly' });
  }

  protected override onConnected(peer: RTCPeerConnection): void {
    for (const sender of peer.getSenders()) {
      if (sender.track?.kind !== 'audio') continue;
      const parameters = sender.getParameters();
      if (!parameters.encodings?.length) continue;
      parameters.encodings[0]!.maxBitrate = TALKBACK_BITRATE;
      void sender.setParameters(parameters).catch(() => undefined);
    }
  }

  /** Shows the camera (a track) or stops showing it (null), on the running connection. */
  async setCamera(track: MediaStreamTrack | null): Promise<void> {
    this.camera = track;
    await this.video?.sender.replaceTrack(track);
  }

  publish(): Promise<void> {
    return this.start();
  }

  updateBitrate(): Promise<void> {
    return Promise.resolve();
  }
}
