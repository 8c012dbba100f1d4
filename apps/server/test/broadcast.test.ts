import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_ERROR_CODES, LIVE_MESSAGES } from '@mixroom/shared';
import type { TestClock } from '../src/platform/clock/clock';
import {
  accessOf,
  broadcastApi,
  broadcastExchange,
  broadcastHub,
  broadcastRoomOf,
  setCanBroadcast,
  tokenExchange,
} from './helpers/broadcast';
import { startClockedServer } from './helpers/clocked-server';
import { liveUser, postOffer, type LiveUser } from './helpers/live';
import { Listener, TonePublisher } from './helpers/rtc-clients';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer & { clock: TestClock };
let caster: LiveUser;
let other: LiveUser;
const peers: { close(): void }[] = [];

beforeAll(async () => {
  server = await startClockedServer();
  [caster, other] = await Promise.all([liveUser(server, 'bc-caster'), liveUser(server, 'bc-other')]);
}, 60_000);
afterAll(async () => {
  for (const peer of peers) peer.close();
  await server?.close();
});

const api = () => broadcastApi(server, caster);
const offerOf = async () => {
  // A one-line recvonly offer is enough for the SFU to answer or refuse before any media flows.
  const { wrtc } = await import('./helpers/rtc-wrtc');
  const pc = new wrtc.RTCPeerConnection();
  pc.addTransceiver('audio', { direction: 'sendonly' });
  const offer = await pc.createOffer();
  pc.close();
  return offer.sdp;
};

describe('the broadcast right', () => {
  it('refuses a user without canBroadcast or a broadcast plan (403), and opens the room once granted', async () => {
    const refused = await broadcastApi(server, other).room();
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe(BROADCAST_ERROR_CODES.notAllowed);
    expect((await broadcastApi(server, null).room()).status).toBe(401);

    await setCanBroadcast(server, caster.id, true);
    const room = broadcastRoomOf(await api().room());
    expect(room).toMatchObject({
      ready: true,
      state: 'not-started',
      listeners: 0,
      countdownTime: null,
      streamKey: null,
    });
    expect(room.roomCodes.map((c) => c.role)).toEqual(['broadcaster', 'viewer-realtime']);
    expect(room.broadcasterCode).toMatch(/^[0-9a-z]{10}$/);
    expect(room.viewerCode).not.toBe(room.broadcasterCode);
    expect(room.roomLink).toBe(`${server.context.config.publicUrl}/public/live/${room.viewerCode}`);
    // The same room on the next read; another user's broadcaster code is no room of theirs.
    expect(broadcastRoomOf(await api().room()).viewerCode).toBe(room.viewerCode);
    await setCanBroadcast(server, other.id, true);
    expect((await broadcastApi(server, other).start(room.broadcasterCode)).status).toBe(404);
    await setCanBroadcast(server, other.id, false);
  });
});

describe('the countdown', () => {
  it('is set in epoch ms, refused in the past, cleared with null, and the public view carries it', async () => {
    const now = server.clock.now().getTime();
    const set = await api().settings({ countdownTime: now + 90_000, title: 'Album night' });
    expect(set.status).toBe(200);
    expect(broadcastRoomOf(set)).toMatchObject({ countdownTime: now + 90_000, title: 'Album night', serverTime: now });
    const { viewerCode } = broadcastRoomOf(set);
    const view = await broadcastApi(server, null).publicView(viewerCode);
    expect(view.body).toMatchObject({
      title: 'Album night',
      host: { displayName: 'bc-caster' },
      countdownTime: now + 90_000,
      state: 'not-started',
      serverTime: now,
    });

    const past = await api().settings({ countdownTime: now - 1000 });
    expect(past.status).toBe(400);
    expect(past.body.error?.code).toBe(BROADCAST_ERROR_CODES.countdownPast);
    expect(broadcastRoomOf(await api().room()).countdownTime).toBe(now + 90_000);

    expect(broadcastRoomOf(await api().settings({ countdownTime: null })).countdownTime).toBeNull();
  });
  it('tells the public topic when the countdown is reached, by the clock', async () => {
    const room = broadcastRoomOf(await api().room());
    const access = accessOf(await broadcastApi(server, null).publicAccess(room.viewerCode));
    const socket = await connectRealtime(server.url);
    socket.send({ type: 'grant', grant: access.realtime.grant });
    await waitFor(() => socket.messages.find((m) => m.type === 'ready'));
    await socket.subscribe(access.realtime.topic);
    const at = server.clock.now().getTime() + 60_000;
    await api().settings({ countdownTime: at });
    const settled = () => socket.events().filter((e) => e.type === 'broadcast.changed' && e.data.action === 'settings');
    await waitFor(() => settled().length === 1, { what: 'the settings change' });
    server.clock.advance(59_000);
    server.clock.advance(2_000);
    await waitFor(() => settled().length === 2, { what: 'the countdown reached' });
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).body.serverTime).toBeGreaterThanOrEqual(at);
    await api().settings({ countdownTime: null });
    socket.close();
  });
});

describe('publishing and listening', () => {
  it('carries the broadcaster to signed-out listeners in stereo, counts them, and tells the public topic', async () => {
    const room = broadcastRoomOf(await api().room());
    expect((await api().start(room.broadcasterCode)).status).toBe(200);

    const socket = await connectRealtime(server.url);
    const first = accessOf(await broadcastApi(server, null).publicAccess(room.viewerCode));
    expect(first.media).toMatchObject({ slotCount: 1, bitrate: 320_000 });
    socket.send({ type: 'grant', grant: first.realtime.grant });
    await waitFor(() => socket.messages.find((m) => m.type === 'ready'));
    expect(await socket.subscribe(`broadcast:${room.viewerCode}`)).toMatchObject({ type: 'subscribed' });

    const publishToken = (await api().mediaToken(room.broadcasterCode)).body as { token: string; url: string };
    const publisher = await TonePublisher.start(broadcastExchange(server, publishToken.url, publishToken.token), {
      leftHz: 440,
      rightHz: 1000,
    });
    peers.push(publisher);
    await waitFor(async () => (await broadcastApi(server, null).publicView(room.viewerCode)).body.state === 'live', {
      what: 'the broadcast live',
    });

    const ears: Listener[] = [];
    for (let i = 0; i < 3; i++) {
      const access = accessOf(await broadcastApi(server, null).publicAccess(room.viewerCode));
      const ear = await Listener.start(tokenExchange(server, access.media), { slots: 1, probeHz: [440, 1000] });
      peers.push(ear);
      ears.push(ear);
    }
    // A WHEP player without any token: the viewer code is the key.
    const bare = await Listener.start(broadcastExchange(server, room.whepUrl, null), {
      slots: 1,
      probeHz: [440, 1000],
    });
    peers.push(bare);
    ears.push(bare);
    for (const ear of ears) {
      await waitFor(() => ear.slotHearing(440, 'left') && ear.slotHearing(1000, 'right'), { what: 'stereo tones' });
      expect([...ear.slots.values()][0]!.stereoFrames).toBeGreaterThan(0);
    }
    await waitFor(async () => broadcastRoomOf(await api().room()).listeners === 4, { what: 'four listeners' });
    await waitFor(() =>
      socket
        .events()
        .find((e) => e.type === 'broadcast.changed' && e.data.action === 'listeners' && e.data.listeners === 4),
    );
    expect(socket.events().some((e) => e.type === 'broadcast.changed' && e.data.action === 'live')).toBe(true);

    bare.close();
    await fetch(`${server.url}${new URL(room.whepUrl).pathname}/${bare.resourceId}`, { method: 'DELETE' });
    await waitFor(async () => broadcastRoomOf(await api().room()).listeners === 3, { what: 'three listeners' });

    // Ending the broadcast: the publisher is dropped, listeners see it ended.
    expect(broadcastRoomOf(await api().stop(room.broadcasterCode)).state).toBe('ended');
    await waitFor(() => socket.events().find((e) => e.type === 'broadcast.changed' && e.data.action === 'ended'));
    await waitFor(() => broadcastHub(server).sfu.stats().publishers === 0, { what: 'the publisher dropped' });
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).body.state).toBe('ended');
    // START again opens a new broadcast: listeners wait for it.
    expect(broadcastRoomOf(await api().start(room.broadcasterCode)).state).toBe('not-started');
    for (const ear of ears) ear.close();
    socket.close();
  });

  it('a new viewer code locks the old link out at once, its connected listeners and grant sockets included', async () => {
    const room = broadcastRoomOf(await api().room());
    const access = accessOf(await broadcastApi(server, null).publicAccess(room.viewerCode));
    const ear = await Listener.start(tokenExchange(server, access.media), { slots: 1 });
    peers.push(ear);
    await waitFor(async () => broadcastRoomOf(await api().room()).listeners === 1, { what: 'one listener' });
    const socket = await connectRealtime(server.url);
    socket.send({ type: 'grant', grant: access.realtime.grant });
    await waitFor(() => socket.messages.find((m) => m.type === 'ready'));
    await socket.subscribe(access.realtime.topic);

    const renewed = broadcastRoomOf(await api().regenerate('viewer-realtime'));
    expect(renewed.viewerCode).not.toBe(room.viewerCode);
    expect(renewed.broadcasterCode).toBe(room.broadcasterCode);
    await waitFor(async () => broadcastRoomOf(await api().room()).listeners === 0, {
      what: 'the old listener dropped',
    });
    await waitFor(() => socket.messages.find((m) => m.type === 'revoked' && m.topic === access.realtime.topic), {
      what: 'the grant socket revoked',
    });
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).status).toBe(404);
    expect((await broadcastApi(server, null).publicAccess(room.viewerCode)).status).toBe(404);
    // The old WHEP URL leads nowhere, with or without the token it came with.
    const oldWhep = `${server.url}${new URL(access.media.url).pathname}`;
    expect((await postOffer(oldWhep, access.media.token, await offerOf())).status).toBe(404);
    expect((await postOffer(oldWhep, null, await offerOf())).status).toBe(404);
    // A listening token is for its own code only.
    const renewedWhep = `${server.url}${new URL(renewed.whepUrl).pathname}`;
    expect((await postOffer(renewedWhep, access.media.token, await offerOf())).status).toBe(401);
    expect((await broadcastApi(server, null).publicView(renewed.viewerCode)).status).toBe(200);
    ear.close();
    socket.close();
  });
});

describe('the stream key', () => {
  it('is shown once, publishes as WHIP bearer, and a wrong or replaced key gets 401', async () => {
    const room = broadcastRoomOf(await api().room());
    const whip = `${server.url}${new URL(room.whipUrl).pathname}`;
    expect((await postOffer(whip, 'mxk_wrong', await offerOf())).status).toBe(401);
    expect((await postOffer(whip, null, await offerOf())).status).toBe(401);

    const first = (await api().streamKey()).body as { streamKey: string; hint: string; whipUrl: string };
    expect(first.whipUrl).toBe(room.whipUrl);
    const listed = broadcastRoomOf(await api().room());
    expect(listed.streamKey?.hint).toBe(first.streamKey.slice(-4));
    expect(JSON.stringify(listed)).not.toContain(first.streamKey);

    const publisher = await TonePublisher.start(broadcastExchange(server, room.whipUrl, first.streamKey), {
      leftHz: 440,
      rightHz: 1000,
    });
    peers.push(publisher);
    await waitFor(async () => broadcastRoomOf(await api().room()).state === 'live', { what: 'live by the stream key' });

    const second = (await api().streamKey()).body as { streamKey: string };
    expect(second.streamKey).not.toBe(first.streamKey);
    const old = await postOffer(whip, first.streamKey, await offerOf());
    expect(old.status).toBe(401);
    expect(old.text).toContain(BROADCAST_ERROR_CODES.badStreamKey);
    // A key is bound to its own room: right key, someone else's code.
    expect(
      (await postOffer(`${server.url}/api/broadcast/zzzzzzzzzz/whip`, second.streamKey, await offerOf())).status,
    ).toBe(401);
    publisher.close();
  });

  it('refuses a Live Premium broadcast without a running subscription with the subscription text', async () => {
    const { planGrants } = await import('../src/db/schema');
    const premium = await liveUser(server, 'bc-premium');
    await server.context.database.db.insert(planGrants).values({
      userId: premium.id,
      sku: 'LIVE_PREMIUM',
      startsAt: new Date(server.clock.now().getTime() - 60_000),
      endsAt: null,
    });
    const room = broadcastRoomOf(await broadcastApi(server, premium).room());
    expect(room).toMatchObject({ ready: false, blockedMessage: LIVE_MESSAGES.broadcastNeedsSubscription });
    const start = await broadcastApi(server, premium).start(room.broadcasterCode);
    expect(start.status).toBe(403);
    expect(start.body.error?.message).toBe(LIVE_MESSAGES.broadcastNeedsSubscription);
  });
});

describe('wrong viewer codes', () => {
  it('are rate-limited per address (429), and the block passes with time', async () => {
    const room = broadcastRoomOf(await api().room());
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++)
      status = (await broadcastApi(server, null).publicAccess(`nosuch${String(i).padStart(4, '0')}`)).status;
    expect(status).toBe(429);
    // Blocked: even the right code waits, so guessing gains nothing from a hit.
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).status).toBe(429);
    server.clock.advance(2 * 3_600_000);
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).status).toBe(200);
  });
});
