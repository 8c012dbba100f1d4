import type { LiveMediaToken, LiveRoom, LiveSession } from '@mixroom/contracts';
import { planGrants } from '../../src/db/schema';
import type { LiveMediaModule } from '../../src/modules/live/live-media.module';
import { call } from './api';
import { signInThroughOidc } from './oidc-flow';
import type { TestServer } from './test-server';
import type { Exchange } from './rtc-clients';

/** A signed-in test user of a live room: its token and id. */
export interface LiveUser {
  email: string;
  token: string;
  id: string;
}

const idOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

export async function liveUser(
  server: Pick<TestServer, 'url'>,
  name: string,
  mode: 'signup' | 'signin' = 'signup',
): Promise<LiveUser> {
  const email = `${name}@live.test`;
  const token = (await signInThroughOidc(server.url, { email, password: `${email}-password`, displayName: name }, mode))
    .access_token;
  return { email, token, id: idOf(token) };
}

export async function grantPlan(server: TestServer, userId: string, sku: 'STUDIO' | 'ESSENTIAL', now: Date) {
  await server.context.database.db
    .insert(planGrants)
    .values({ userId, sku, startsAt: new Date(now.getTime() - 3_600_000), endsAt: null });
}

/** The live API as one user calls it. */
export function liveApi(server: Pick<TestServer, 'url'>, user: { token: string } | null) {
  const token = user?.token ?? null;
  return {
    rooms: () => call(server.url, '/api/live/rooms', { token }),
    regenerate: (role: 'host' | 'guest') =>
      call(server.url, `/api/live/rooms/${role}/regenerate`, { method: 'POST', token }),
    start: (code: string, instanceId = 'tab-1') =>
      call(server.url, `/api/live/${code}/start`, { method: 'POST', token, body: { instanceId } }),
    join: (code: string, instanceId = 'tab-1') =>
      call(server.url, `/api/live/${code}/join`, { method: 'POST', token, body: { instanceId } }),
    get: (code: string) => call(server.url, `/api/live/${code}`, { token }),
    leave: (code: string, instanceId = 'tab-1') =>
      call(server.url, `/api/live/${code}/leave`, { method: 'POST', token, body: { instanceId } }),
    coHost: (code: string, userId: string, enabled: boolean) =>
      call(server.url, `/api/live/${code}/cohost`, { method: 'POST', token, body: { userId, enabled } }),
    stream: (code: string, body: { bitrate?: number; source?: 0 | 1 | null }) =>
      call(server.url, `/api/live/${code}/stream`, { method: 'PATCH', token, body }),
    mediaToken: (code: string, mode: 'publish' | 'subscribe') =>
      call(server.url, `/api/live/${code}/media-token`, { method: 'POST', token, body: { mode } }),
  };
}

export const roomOf = (answer: { body: unknown }) => answer.body as LiveRoom;
export const sessionOf = (answer: { body: unknown }) => answer.body as LiveSession;
export const mediaOf = (answer: { body: unknown }) => answer.body as LiveMediaToken;

/** POSTs an SDP offer to a WHIP or WHEP URL with a bearer; status, answer and Location. */
export async function postOffer(url: string, bearer: string | null, sdp: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: sdp,
  });
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

/** An Exchange for the wrtc test peers through the live module's WHIP/WHEP routes. */
export function exchangeVia(server: Pick<TestServer, 'url'>, token: LiveMediaToken): Exchange {
  return async (offerSdp) => {
    const answer = await postOffer(`${server.url}${new URL(token.url).pathname}`, token.token, offerSdp);
    if (answer.status !== 201 || !answer.location) throw new Error(`${answer.status} ${answer.text}`);
    return { answerSdp: answer.text, resourceId: answer.location.split('/').pop()! };
  };
}

export const mediaHub = (server: TestServer) =>
  (server.context.modules.find((m) => m.name === 'live-media') as LiveMediaModule).services.hub();
