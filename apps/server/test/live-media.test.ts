import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_ERROR_CODES, LIVE_MESSAGES } from '@mixroom/shared';
import type { SfuEvent } from '../src/platform/rtc/sfu-driver';
import type { TestClock } from '../src/platform/clock/clock';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import {
  exchangeVia,
  grantPlan,
  liveApi,
  liveUser,
  mediaHub,
  mediaOf,
  roomOf,
  sessionOf,
  type LiveUser,
} from './helpers/live';
import { Listener, TonePublisher } from './helpers/rtc-clients';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer & { clock: TestClock };
let host: LiveUser;
let freeHost: LiveUser;
let guest: LiveUser;
const sfuEvents: SfuEvent[] = [];
const peers: { close(): void }[] = [];

beforeAll(async () => {
  server = await startClockedServer();
  const users = await Promise.all(['media-host', 'media-free', 'media-guest'].map((n) => liveUser(server, n)));
  [host, freeHost, guest] = [users[0]!, users[1]!, users[2]!];
  await grantPlan(server, host.id, 'STUDIO', server.clock.now());
  mediaHub(server).sfu.onEvent((event) => sfuEvents.push(event));
}, 60_000);
afterAll(async () => {
  for (const peer of peers) peer.close();
  await server?.close();
});

describe('live media through the WHIP and WHEP routes', () => {
  it('carries a publisher to a listener, and tells the listener which slot is whose', async () => {
    const { hostCode, guestCode } = roomOf(await liveApi(server, host).rooms());
    await liveApi(server, host).start(hostCode);
    await liveApi(server, guest).join(guestCode);
    const publishToken = mediaOf(await liveApi(server, host).mediaToken(guestCode, 'publish'));
    const listenToken = mediaOf(await liveApi(server, guest).mediaToken(guestCode, 'subscribe'));
    const publisher = await TonePublisher.start(exchangeVia(server, publishToken), { leftHz: 440, rightHz: 1000 });
    peers.push(publisher);
    const ear = await Listener.start(exchangeVia(server, listenToken), {
      slots: listenToken.slotCount,
      probeHz: [440, 1000],
    });
    peers.push(ear);
    const mid = await waitFor(() => ear.slotHearing(440, 'left'), { what: "the host's tone at the guest" });
    expect(ear.slotHearing(1000, 'right')).toBe(mid);

    const socket = await connectRealtime(server.url);
    await socket.auth(guest.token);
    // Only a follower of the room may ask for its slot map.
    socket.send({ type: 'live.slots', code: guestCode, resourceId: ear.resourceId });
    await waitFor(() => socket.messages.find((m) => m.type === 'error' && m.code === 'NOT_FOUND'));
    await socket.subscribe(`live:${guestCode}`);
    socket.send({ type: 'live.slots', code: guestCode, resourceId: ear.resourceId });
    const slots = await waitFor(() => socket.messages.find((m) => m.type === 'live.slots'));
    expect(slots.type === 'live.slots' && slots.slots.find((s) => s.mid === mid)).toMatchObject({
      participant: host.id,
      live: true,
    });
    // Everyone in the room hears who publishes (to refetch who is live).
    expect(socket.events().find((e) => e.type === 'live.changed' && e.data.action === 'publishing')).toBeUndefined();
    await TonePublisher.restart(publisher, exchangeVia(server, publishToken), { leftHz: 440, rightHz: 1000 }).then(
      (p) => peers.push(p),
    );
    await waitFor(() =>
      socket
        .events()
        .find((e) => e.type === 'live.changed' && e.data.action === 'publishing' && e.data.userId === host.id),
    );
    socket.close();

    // A co-host publishes; disabled by the host, it stops at once.
    await liveApi(server, host).coHost(guestCode, guest.id, true);
    const coHostToken = mediaOf(await liveApi(server, guest).mediaToken(guestCode, 'publish'));
    peers.push(await TonePublisher.start(exchangeVia(server, coHostToken), { leftHz: 660, rightHz: 660 }));
    await waitFor(() => sfuEvents.find((e) => e.type === 'publisher-started' && e.participant === guest.id));
    await liveApi(server, host).coHost(guestCode, guest.id, false);
    const cut = await waitFor(() =>
      sfuEvents.find((e) => e.type === 'publisher-stopped' && e.participant === guest.id),
    );
    expect(cut.type === 'publisher-stopped' && cut.reason).toBe('deleted');

    // The host leaving ends publishing.
    await liveApi(server, host).leave(guestCode);
    await waitFor(() =>
      sfuEvents.find((e) => e.type === 'publisher-stopped' && e.room === guestCode && e.participant === host.id),
    );
    expect((await liveApi(server, host).mediaToken(guestCode, 'publish')).status).toBe(404);
  });

  it('cuts a free session at 30 minutes: publisher dropped, everyone told, no new token', async () => {
    const { hostCode, guestCode } = roomOf(await liveApi(server, freeHost).rooms());
    const started = sessionOf(await liveApi(server, freeHost).start(hostCode));
    expect(started.remainingMs).toBe(30 * 60_000);
    const socket = await connectRealtime(server.url);
    await socket.auth(freeHost.token);
    await socket.subscribe(`live:${guestCode}`);
    const token = mediaOf(await liveApi(server, freeHost).mediaToken(guestCode, 'publish'));
    expect(token.lossless).toBe(false);
    const publisher = await TonePublisher.start(exchangeVia(server, token), { leftHz: 440, rightHz: 440 });
    peers.push(publisher);
    await waitFor(() => sfuEvents.find((e) => e.type === 'publisher-started' && e.room === guestCode));

    server.clock.advance(29 * 60_000);
    await waitFor(() =>
      socket.events().find((e) => e.type === 'live.changed' && e.data.action === 'tick' && e.data.code === guestCode),
    );
    expect(sfuEvents.find((e) => e.type === 'publisher-stopped' && e.room === guestCode)).toBeUndefined();
    server.clock.advance(2 * 60_000);
    await waitFor(() => socket.events().find((e) => e.type === 'live.changed' && e.data.action === 'expired'), {
      what: 'Free Tier Time Expired',
    });
    const stopped = await waitFor(() =>
      sfuEvents.find((e) => e.type === 'publisher-stopped' && e.room === guestCode && e.participant === freeHost.id),
    );
    expect(stopped.type === 'publisher-stopped' && stopped.reason).toBe('dropped');
    socket.close();

    // Access tokens are issued on wall time: bring the clock back so the host's token is good again.
    server.clock.set(new Date());
    const again = freeHost;
    const refused = await liveApi(server, again).mediaToken(guestCode, 'publish');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      code: LIVE_ERROR_CODES.freeTierExpired,
      message: LIVE_MESSAGES.freeTierExpired,
    });
    const session = sessionOf(await liveApi(server, again).get(guestCode));
    expect(session).toMatchObject({ availability: 'EXPIRED', remainingMs: 0 });
    // Its minutes count for the month ("Live minutes this month").
    const me = await call(server.url, '/api/me', { token: again.token });
    expect((me.body.entitlements as { liveMinutesThisMonth: number }).liveMinutesThisMonth).toBe(30);
    // A new session may start at once (free sessions are unlimited in number).
    expect(sessionOf(await liveApi(server, again).start(hostCode)).availability).toBe('ACTIVE');
  });
});
