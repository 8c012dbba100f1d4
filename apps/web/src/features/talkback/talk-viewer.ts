import { StreamingClient, type MediaGrant } from '../live';

export interface TalkSlot {
  mid: string;
  kind: 'audio' | 'video';
  track: MediaStreamTrack;
  stream: MediaStream;
  receiver: RTCRtpReceiver;
}

/**
 * Talkback WHEP: K recvonly audio slots, then K recvonly video slots (cameras); the server puts each
 * other participant's voice on an audio slot and its camera on the video slot of the same index, and
 * says which mid carries whom in the slot map.
 */
export class TalkViewer extends StreamingClient {
  constructor(
    options: ConstructorParameters<typeof StreamingClient>[0],
    private readonly onSlot: (slot: TalkSlot) => void,
  ) {
    super(options);
  }

  protected preparePeer(peer: RTCPeerConnection, grant: MediaGrant): void {
    const slots = Math.max(1, grant.slotCount ?? 8);
    for (let i = 0; i < slots; i++) peer.addTransceiver('audio', { direction: 'recvonly' });
    for (let i = 0; i < slots; i++) peer.addTransceiver('video', { direction: 'recvonly' });
    peer.addEventListener('track', (event) => {
      const kind = event.track.kind === 'video' ? 'video' : 'audio';
      this.onSlot({
        mid: event.transceiver?.mid ?? '',
        kind,
        track: event.track,
        // One stream per slot: Web Audio plays only the first audio track of a stream.
        stream: new MediaStream([event.track]),
        receiver: event.receiver,
      });
    });
  }

  view(): Promise<void> {
    return this.start();
  }

  updateBitrate(): Promise<void> {
    return Promise.reject(new Error('It is not possible for a viewer to update the bitrate.'));
  }
}
