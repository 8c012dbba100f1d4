import type { ServerMessage } from '@mixroom/contracts';
import WebSocket from 'ws';
import { waitFor } from './wait-for';

/** A realtime client for tests: keeps every message so assertions wait on what arrived. */
export async function connectRealtime(baseUrl: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/realtime`);
  const messages: ServerMessage[] = [];
  let closeCode: number | null = null;
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as ServerMessage));
  socket.on('close', (code) => (closeCode = code));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  return {
    messages,
    closeCode: () => closeCode,
    send,
    async auth(token: string) {
      send({ type: 'auth', token });
      await waitFor(() => messages.find((m) => m.type === 'ready'), { what: 'ready' });
    },
    async subscribe(topic: string) {
      send({ type: 'subscribe', topic });
      return waitFor(
        () => messages.find((m) => (m.type === 'subscribed' || m.type === 'denied') && m.topic === topic),
        { what: `answer for ${topic}` },
      );
    },
    events: () => messages.flatMap((m) => (m.type === 'event' ? [m.event] : [])),
    close: () => socket.close(),
  };
}
