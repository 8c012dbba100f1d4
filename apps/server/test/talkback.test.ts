import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TalkbackSlots, TalkbackToken } from '@mixroom/contracts';
import type { SfuEvent } from '../src/platform/rtc/sfu-driver';
import type { TalkbackMediaModule } from '../src/modules/talkback/talkback.module';
import { call } from './helpers/api';
import { accessOf, broadcastApi, broadcastRoomOf, setCanBroadcast } from './helpers/broadcast';
import { grantPlan, liveApi, liveUser, postOffer, roomOf, type LiveUser } from './helpers/live';
import { Listener, TonePublisher, type Exchange } from './helpers/rtc-clients';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { wrtc } from './helpers/rtc-wrtc';

let server: TestServer;
let host: LiveUser;
let cohost: LiveUser;
let guest: LiveUser;
let outsider: LiveUser;
let otherHost: LiveUser;
let room: { hostCode: string; guestCode: string };
let otherRoom: { hostCode: string; guestCode: string };
const sfuEvents: SfuEvent[] = [];
const peers: { close(): void }[] = [];
/** The server's warnings: an event the bus refused or dropped is a bug of its sender. */
const warnings: string[] = [];

const talkback = (user: LiveUser | null, code: string, mode: 'publish' | 'subscribe') =>
  call(server.url, `/api/live/${code}/talkback/token`, { method: 'POST', token: user?.token ?? null, body: { mode } });
const tokenOf = async (user: LiveUser, code: string, mode: 'publish' | 'subscribe') => {
  const answer = await talkback(user, code, mode);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as TalkbackToken;
};
const pathOf = (url: string) => `${server.url}${new URL(url).pathname}`;
const exchangeOf =
  (url: string, bearer: string | null): Exchange =>
  async (offerSdp) => {
    const answer = await postOffer(pathOf(url), bearer, offerSdp);
    if (answer.status !== 201 || !answer.location) throw new Error(`${answer.status} ${answer.text}`);
    return { answerSdp: answer.text, resourceId: answer.location.split('/').pop()! };
  };
const slotsOf = async (token: TalkbackToken, resourceId: string) =>
  call(server.url, `/api/live/${room.guestCode}/talkback/whep/${resourceId}`, { token: token.token });

/** A real offer that sends one Opus track (WHIP) or receives K (WHEP), for the refusal checks. */
async function offer(mode: 'publish' | 'subscribe'): Promise<string> {
  const pc = new wrtc.RTCPeerConnection();
  if (mode === 'publish') pc.addTransceiver('audio', { direction: 'sendonly' });
  else for (let i = 0; i < 2; i++) pc.addTransceiver('audio', { direction: 'recvonly' });
  const made = await pc.createOffer();
  pc.close();
  return made.sdp ?? '';
}
/** The status a WHIP or WHEP offer gets with this bearer at this URL (201 resources are freed at once). */
async function offerStatus(url: string, bearer: string | null, mode: 'publish' | 'subscribe'): Promise<number> {
  const answer = await postOffer(pathOf(url), bearer, await offer(mode));
  if (answer.location)
    await fetch(`${server.url}${answer.location}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bearer}` },
    });
  return answer.status;
}

beforeAll(async () => {
  server = await startTestServer({}, { logger: pino({ level: 'warn' }, { write: (line) => warnings.push(line) }) });
  const names = ['tb-host', 'tb-cohost', 'tb-guest', 'tb-outsider', 'tb-other-host'];
  [host, cohost, guest, outsider, otherHost] = (await Promise.all(names.map((n) => liveUser(server, n)))) as [
    LiveUser,
    LiveUser,
    LiveUser,
    LiveUser,
    LiveUser,
  ];
  await grantPlan(server, host.id, 'STUDIO', new Date());
  room = roomOf(await liveApi(server, host).rooms());
  otherRoom = roomOf(await liveApi(server, otherHost).rooms());
  expect((await liveApi(server, host).start(room.hostCode)).status).toBe(200);
  expect((await liveApi(server, otherHost).start(otherRoom.hostCode)).status).toBe(200);
  for (const user of [cohost, guest]) expect((await liveApi(server, user).join(room.guestCode)).status).toBe(200);
  expect((await liveApi(server, host).coHost(room.guestCode, cohost.id, true)).status).toBe(200);
  const media = server.context.modules.find((m) => m.name === 'talkback-media') as TalkbackMediaModule;
  media.services.hub.sfu.onEvent((event) => sfuEvents.push(event));
}, 90_000);
afterAll(async () => {
  for (const peer of peers) peer.close();
  await server?.close();
});

describe("who may talk and listen in a live room's talkback", () => {
  it('gives host, co-host and guest a token for both modes, bound to their role; nobody else', async () => {
    for (const [user, role] of [
      [host, 'host'],
      [cohost, 'cohost'],
      [guest, 'guest'],
    ] as const) {
      for (const mode of ['publish', 'subscribe'] as const) {
        const token = await tokenOf(user, room.guestCode, mode);
        expect(token).toMatchObject({ mode, role, slotCount: 8 });
        expect(new URL(token.url).pathname).toBe(
          ['', 'api', 'live', room.guestCode, 'talkback', mode === 'publish' ? 'whip' : 'whep'].join('/'),
        );
        expect(await offerStatus(token.url, token.token, mode)).toBe(201);
      }
    }
    // Not admitted: signed in but never joined; anonymous; a music token is not a talkback token.
    expect((await talkback(outsider, room.guestCode, 'subscribe')).status).toBe(404);
    expect((await talkback(null, room.guestCode, 'subscribe')).status).toBe(401);
    const whep = `${server.url}/api/live/${room.guestCode}/talkback/whep`;
    expect(await offerStatus(whep, null, 'subscribe')).toBe(401);
    const music = await liveApi(server, guest).mediaToken(room.guestCode, 'subscribe');
    expect(await offerStatus(whep, (music.body as { token: string }).token, 'subscribe')).toBe(401);
    // A token for one mode is not good for the other.
    const listen = await tokenOf(guest, room.guestCode, 'subscribe');
    expect(await offerStatus(`${server.url}/api/live/${room.guestCode}/talkback/whip`, listen.token, 'publish')).toBe(
      403,
    );
  });

  it("refuses a broadcast listener, and room A's token in room B", async () => {
    await setCanBroadcast(server, host.id, true);
    const broadcast = broadcastRoomOf(await broadcastApi(server, host).room());
    const access = accessOf(await broadcastApi(server, null).publicAccess(broadcast.viewerCode));
    const whep = `${server.url}/api/live/${room.guestCode}/talkback/whep`;
    expect(await offerStatus(whep, access.media.token, 'subscribe')).toBe(401);
    expect((await talkback(outsider, broadcast.viewerCode, 'subscribe')).status).toBe(404);

    const a = await tokenOf(guest, room.guestCode, 'subscribe');
    const b = `${server.url}/api/live/${otherRoom.guestCode}/talkback/whep`;
    expect(await offerStatus(b, a.token, 'subscribe')).toBe(403);
    expect((await talkback(guest, otherRoom.guestCode, 'subscribe')).status).toBe(404);
  });
});

describe('talkback media on the embedded SFU', () => {
  it('carries each participant to every other one, never back to itself; DELETE and leaving free it', async () => {
    const [hostTalk, guestTalk, hostEarToken, guestEarToken] = await Promise.all([
      tokenOf(host, room.guestCode, 'publish'),
      tokenOf(guest, room.guestCode, 'publish'),
      tokenOf(host, room.guestCode, 'subscribe'),
      tokenOf(guest, room.guestCode, 'subscribe'),
    ]);
    const hostMouth = await TonePublisher.start(exchangeOf(hostTalk.url, hostTalk.token), {
      leftHz: 440,
      rightHz: 440,
    });
    const guestMouth = await TonePublisher.start(exchangeOf(guestTalk.url, guestTalk.token), {
      leftHz: 660,
      rightHz: 660,
    });
    const hostEar = await Listener.start(exchangeOf(hostEarToken.url, hostEarToken.token), {
      slots: hostEarToken.slotCount,
      probeHz: [440, 660],
    });
    const guestEar = await Listener.start(exchangeOf(guestEarToken.url, guestEarToken.token), {
      slots: guestEarToken.slotCount,
      probeHz: [440, 660],
    });
    peers.push(hostMouth, guestMouth, hostEar, guestEar);
    const guestAtHost = await waitFor(() => hostEar.slotHearing(660), { what: "the guest's voice at the host" });
    const hostAtGuest = await waitFor(() => guestEar.slotHearing(440), { what: "the host's voice at the guest" });
    // One's own voice never comes back: no slot of the host's ear carries the host.
    expect(hostEar.slotHearing(440)).toBeUndefined();
    expect(guestEar.slotHearing(660)).toBeUndefined();
    const hostSlots = (await slotsOf(hostEarToken, hostEar.resourceId)).body as unknown as TalkbackSlots;
    expect(hostSlots.slots.find((s) => s.mid === guestAtHost)).toMatchObject({ participant: guest.id, live: true });
    expect(hostSlots.slots.some((s) => s.participant === host.id)).toBe(false);
    const guestSlots = (await slotsOf(guestEarToken, guestEar.resourceId)).body as unknown as TalkbackSlots;
    expect(guestSlots.slots.find((s) => s.mid === hostAtGuest)).toMatchObject({ participant: host.id, live: true });
    // The music room is another SFU room: the talkback is not in it, nor told to the room's topic
    // (a talkback room is not a live room: its publishers were once sent to a topic nobody knows).
    expect(sfuEvents.some((e) => e.type === 'publisher-started' && e.room === room.guestCode)).toBe(false);
    expect(warnings.filter((line) => /not published|malformed/.test(line))).toEqual([]);
    // Someone else's slot map or resource is not reachable, even from the same room.
    expect((await slotsOf(guestEarToken, hostEar.resourceId)).status).toBe(404);
    const foreignDelete = await fetch(`${pathOf(hostEarToken.url)}/${hostEar.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${guestEarToken.token}` },
    });
    expect(foreignDelete.status).toBe(404);

    // DELETE frees the host's voice at once: the guest's slot goes quiet.
    const deleted = await fetch(`${pathOf(hostTalk.url)}/${hostMouth.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${hostTalk.token}` },
    });
    expect(deleted.status).toBe(200);
    const stopped = await waitFor(() =>
      sfuEvents.find((e) => e.type === 'publisher-stopped' && e.participant === host.id),
    );
    expect(stopped.type === 'publisher-stopped' && stopped.reason).toBe('deleted');
    await waitFor(async () => {
      const now = (await slotsOf(guestEarToken, guestEar.resourceId)).body as unknown as TalkbackSlots;
      return now.slots.find((s) => s.participant === host.id && !s.live);
    });

    // The guest leaves the live room: its talkback peers are dropped and its tokens refused.
    expect((await liveApi(server, guest).leave(room.guestCode)).status).toBe(204);
    const dropped = await waitFor(
      () => {
        const gone = sfuEvents.filter(
          (e) =>
            (e.type === 'publisher-stopped' || e.type === 'subscriber-gone') &&
            [guestMouth.resourceId, guestEar.resourceId].includes(e.resourceId),
        );
        return gone.length === 2 ? gone : undefined;
      },
      { what: "the guest's talkback peers dropped" },
    );
    expect(dropped.map((e) => ('reason' in e ? e.reason : null))).toEqual(['dropped', 'dropped']);
    expect(await offerStatus(guestEarToken.url, guestEarToken.token, 'subscribe')).toBe(403);
    expect((await talkback(guest, room.guestCode, 'subscribe')).status).toBe(404);
  });

  it('the bus refuses an event with no known topic where it is sent, not on every node that hears it', async () => {
    const sent = server.context.bus.publish({
      topic: `live:talkback:${room.guestCode}`,
      type: 'live.changed',
      data: { code: room.guestCode, action: 'publishing', userId: host.id, instanceId: null, remainingMs: null },
    });
    await expect(sent).rejects.toThrow('unknown topic');
  });

  it('refuses a guest holding the old code once the host regenerated it', async () => {
    expect((await liveApi(server, guest).join(room.guestCode)).status).toBe(200);
    const old = await tokenOf(guest, room.guestCode, 'subscribe');
    expect((await liveApi(server, host).regenerate('guest')).status).toBe(200);
    expect(await offerStatus(old.url, old.token, 'subscribe')).toBe(403);
    expect((await talkback(guest, room.guestCode, 'subscribe')).status).toBe(404);
    const fresh = roomOf(await liveApi(server, host).rooms());
    expect(fresh.guestCode).not.toBe(room.guestCode);
    expect((await liveApi(server, host).start(fresh.hostCode)).status).toBe(200);
    // The old code leads nowhere, and the new room is not the guest's until it joins again.
    expect((await talkback(guest, fresh.guestCode, 'subscribe')).status).toBe(404);
    expect((await talkback(host, fresh.guestCode, 'subscribe')).status).toBe(200);
  });
});
