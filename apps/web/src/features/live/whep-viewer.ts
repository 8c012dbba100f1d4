import { LOSSLESS_CHANNEL_LABEL } from '@mixroom/shared';
import { preferStereoOpus } from './opus-sdp';
import { STREAMING_MESSAGES, StreamingClient, type MediaGrant, type StreamingOptions } from './streaming-client';

export interface ViewOptions {
  /** Recvonly audio transceivers to offer: the room's publisher cap (each is a slot). */
  slots: number;
}

export interface ReceivedSlot {
  mid: string;
  track: MediaStreamTrack;
  stream: MediaStream;
}

/**
 * WHEP: K recvonly stereo slots; the server maps publishers onto them. The offer also carries a
 * data channel of its own, so the SFU may open a relay of each lossless publisher's PCM channel
 * toward this listener (label `lossless`, protocol = the publisher's user id).
 */
export class Viewer extends StreamingClient {
  private slots = 0;

  constructor(
    options: StreamingOptions,
    private readonly onSlot: (slot: ReceivedSlot) => void,
    private readonly onLossless?: (channel: RTCDataChannel) => void,
  ) {
    super(options);
  }

  async view(options: ViewOptions): Promise<void> {
    if (this.isActive) throw new Error(STREAMING_MESSAGES.viewerSubscribed);
    this.slots = Math.max(1, options.slots);
    await this.start();
  }

  protected preparePeer(peer: RTCPeerConnection, grant: MediaGrant): void {
    const slots = Math.max(1, grant.slotCount ?? this.slots);
    for (let i = 0; i < slots; i++) peer.addTransceiver('audio', { direction: 'recvonly' });
    peer.addEventListener('track', (event) => {
      const mid = event.transceiver?.mid ?? String(slots);
      // One stream per slot: the answer may put every slot's track in one stream, and Web Audio
      // plays only the first audio track of a stream.
      this.onSlot({ mid, track: event.track, stream: new MediaStream([event.track]) });
    });
    peer.createDataChannel('mixroom-listener');
    peer.addEventListener('datachannel', ({ channel }) => {
      if (channel.label !== LOSSLESS_CHANNEL_LABEL) return;
      channel.binaryType = 'arraybuffer';
      this.onLossless?.(channel);
    });
  }

  protected override editOffer(sdp: string): string {
    return preferStereoOpus(sdp);
  }

  updateBitrate(): Promise<void> {
    return Promise.reject(new Error(STREAMING_MESSAGES.viewerBitrate));
  }
}
