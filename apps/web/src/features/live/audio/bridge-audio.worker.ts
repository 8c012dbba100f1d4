import { decodeBridgeFrame } from './bridge-protocol';

/**
 * The bridge's audio socket, off the page's main thread: frames are decoded here and go straight to
 * the ring-player worklet on the port the page hands over, so a busy page (meters, React, a test's
 * own work) never delays the audio that is published. The page hears only that the socket opened
 * or closed.
 */
export type BridgeAudioCommand = { type: 'open'; id: number; url: string; feed: MessagePort } | { type: 'close' };
/** About the socket that `open` command `id` opened (older news is stale to the page). */
export type BridgeAudioNews = { type: 'open' | 'closed'; id: number };

interface WorkerScope {
  onmessage: ((event: MessageEvent<BridgeAudioCommand>) => void) | null;
  postMessage(message: BridgeAudioNews): void;
}
const scope = self as unknown as WorkerScope;

let socket: WebSocket | null = null;
let feed: MessagePort | null = null;

function close(): void {
  if (socket) {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.close();
  }
  socket = null;
  feed?.close();
  feed = null;
}

scope.onmessage = (event) => {
  const command = event.data;
  close();
  if (command.type !== 'open') return;
  feed = command.feed;
  const opened = new WebSocket(command.url);
  opened.binaryType = 'arraybuffer';
  socket = opened;
  const { id } = command;
  opened.onopen = () => scope.postMessage({ type: 'open', id });
  opened.onmessage = (message: MessageEvent<ArrayBuffer | string>) => {
    if (!(message.data instanceof ArrayBuffer)) return;
    const frame = decodeBridgeFrame(message.data);
    if (frame)
      feed?.postMessage(
        frame.channels,
        frame.channels.map((c) => c.buffer as ArrayBuffer),
      );
  };
  opened.onerror = () => undefined;
  opened.onclose = () => {
    if (socket !== opened) return;
    close();
    scope.postMessage({ type: 'closed', id });
  };
};
