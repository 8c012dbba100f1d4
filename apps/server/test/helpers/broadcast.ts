import type { BroadcastMediaToken, BroadcastRoom, PublicBroadcastAccess } from '@mixroom/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema';
import type { BroadcastMediaModule } from '../../src/modules/broadcast/broadcast.module';
import { call } from './api';
import { postOffer } from './live';
import type { Exchange } from './rtc-clients';
import type { TestServer } from './test-server';

/** The broadcast API as one caller (null: signed out) uses it. */
export function broadcastApi(server: TestServer, user: { token: string } | null) {
  const token = user?.token ?? null;
  return {
    room: () => call(server.url, '/api/broadcast', { token }),
    settings: (body: { title?: string; countdownTime?: number | null; bitrate?: number }) =>
      call(server.url, '/api/broadcast', { method: 'PATCH', token, body }),
    regenerate: (role: 'broadcaster' | 'viewer-realtime') =>
      call(server.url, `/api/broadcast/codes/${role}/regenerate`, { method: 'POST', token }),
    streamKey: () => call(server.url, '/api/broadcast/stream-key', { method: 'POST', token }),
    start: (code: string) => call(server.url, `/api/broadcast/${code}/start`, { method: 'POST', token }),
    stop: (code: string) => call(server.url, `/api/broadcast/${code}/stop`, { method: 'POST', token }),
    mediaToken: (code: string) => call(server.url, `/api/broadcast/${code}/media-token`, { method: 'POST', token }),
    publicView: (code: string) => call(server.url, `/api/public/broadcast/${code}`),
    publicAccess: (code: string) => call(server.url, `/api/public/broadcast/${code}/access`, { method: 'POST' }),
  };
}

export const broadcastRoomOf = (answer: { body: unknown }) => answer.body as BroadcastRoom;
export const accessOf = (answer: { body: unknown }) => answer.body as PublicBroadcastAccess;

/** What an administrator's canBroadcast switch does, set directly. */
export async function setCanBroadcast(server: TestServer, userId: string, on: boolean) {
  await server.context.database.db.update(users).set({ canBroadcast: on }).where(eq(users.id, userId));
}

/** An Exchange through the broadcast WHIP/WHEP routes with a bearer (a token, a stream key, or none). */
export function broadcastExchange(server: TestServer, url: string, bearer: string | null): Exchange {
  return async (offerSdp) => {
    const answer = await postOffer(`${server.url}${new URL(url).pathname}`, bearer, offerSdp);
    if (answer.status !== 201 || !answer.location) throw new Error(`${answer.status} ${answer.text}`);
    return { answerSdp: answer.text, resourceId: answer.location.split('/').pop()! };
  };
}

export const tokenExchange = (server: TestServer, token: BroadcastMediaToken) =>
  broadcastExchange(server, token.url, token.token);

export const broadcastHub = (server: TestServer) =>
  (server.context.modules.find((m) => m.name === 'broadcast-media') as BroadcastMediaModule).services.hub;
