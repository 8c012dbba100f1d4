import { createRequire } from 'node:module';

/**
 * @roamhq/wrtc (libwebrtc in Node) typed as far as the tests use it. Its own typings re-export the
 * DOM's WebRTC globals, which the server's TypeScript setup (no DOM lib) reads as `any`.
 */
export interface SessionDescription {
  type: 'offer' | 'answer';
  sdp: string;
}

export interface WrtcTrack {
  readonly id: string;
  readonly kind: string;
  stop(): void;
}

export interface WrtcTransceiver {
  readonly mid: string | null;
  readonly receiver: { readonly track: WrtcTrack };
  readonly sender: { replaceTrack(track: WrtcTrack | null): Promise<void> };
}

export interface WrtcDataChannel {
  readonly label: string;
  readonly protocol: string;
  readonly readyState: 'connecting' | 'open' | 'closing' | 'closed';
  binaryType: string;
  onopen: (() => void) | null;
  onmessage: ((event: { data: ArrayBuffer | string }) => void) | null;
  send(data: Uint8Array): void;
  close(): void;
}

export interface WrtcPeerConnection {
  readonly localDescription: SessionDescription | null;
  readonly iceGatheringState: 'new' | 'gathering' | 'complete';
  readonly connectionState: string;
  onicegatheringstatechange: (() => void) | null;
  ontrack: ((event: { track: WrtcTrack; transceiver: WrtcTransceiver }) => void) | null;
  ondatachannel: ((event: { channel: WrtcDataChannel }) => void) | null;
  createOffer(): Promise<SessionDescription>;
  setLocalDescription(description: SessionDescription): Promise<void>;
  setRemoteDescription(description: SessionDescription): Promise<void>;
  addTransceiver(trackOrKind: WrtcTrack | 'audio', init: { direction: 'sendonly' | 'recvonly' }): WrtcTransceiver;
  getTransceivers(): WrtcTransceiver[];
  createDataChannel(label: string, init?: { ordered?: boolean; maxRetransmits?: number }): WrtcDataChannel;
  /** The standard stats report: entries by id, each with its `type` and the fields libwebrtc fills. */
  getStats(): Promise<Map<string, Record<string, unknown>>>;
  close(): void;
}

export interface AudioData {
  samples: Int16Array;
  sampleRate: number;
  bitsPerSample?: number;
  channelCount?: number;
  numberOfFrames?: number;
}

export interface WrtcAudioSource {
  createTrack(): WrtcTrack;
  onData(data: AudioData): void;
}

export interface WrtcAudioSink {
  ondata: ((data: Required<AudioData>) => void) | null;
  stop(): void;
}

export interface Wrtc {
  RTCPeerConnection: new (config?: { iceServers?: { urls: string }[] }) => WrtcPeerConnection;
  nonstandard: {
    RTCAudioSource: new () => WrtcAudioSource;
    RTCAudioSink: new (track: WrtcTrack) => WrtcAudioSink;
  };
}

export const wrtc = createRequire(import.meta.url)('@roamhq/wrtc') as Wrtc;

/** Offers without trickle ICE: WHIP/WHEP clients that send every candidate in the first POST. */
export async function gatheredOffer(pc: WrtcPeerConnection, edit: (sdp: string) => string = (s) => s): Promise<string> {
  const offer = await pc.createOffer();
  await pc.setLocalDescription({ type: 'offer', sdp: edit(offer.sdp) });
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.onicegatheringstatechange = () => {
      if (pc.iceGatheringState === 'complete') resolve();
    };
  });
  return pc.localDescription!.sdp;
}
