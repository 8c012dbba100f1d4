import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { ExternalWhipWhepDriver } from '../src/platform/rtc/external-whip-whep-driver';
import type { SfuEvent } from '../src/platform/rtc/sfu-driver';
import { WeriftSfu } from '../src/platform/rtc/werift-sfu';
import { Listener, TonePublisher } from './helpers/rtc-clients';
import { buildWhipClientLibraries, startWhipClient, type WhipClient } from './helpers/rtc-whip-client';
import { httpExchange, startWhipServer, type WhipServer } from './helpers/rtc-whip-server';
import { waitFor } from './helpers/wait-for';

/**
 * WHIP/WHEP over HTTP: a real GStreamer WHIP publisher (simple-whip-client) into the embedded SFU,
 * and the external-server driver forwarding to the embedded SFU behind a bare HTTP endpoint.
 */
const TOKEN = 'whip-secret';
const sfu = new WeriftSfu({ clock: new TestClock(new Date('2026-12-01T10:00:00Z')), slotCount: 4 });
const events: SfuEvent[] = [];
sfu.onEvent((event) => events.push(event));
let server: WhipServer;
let libraries: ReturnType<typeof buildWhipClientLibraries>;
const clients: WhipClient[] = [];
const peers: { close(): void }[] = [];
const drivers: ExternalWhipWhepDriver[] = [];

beforeAll(async () => {
  libraries = buildWhipClientLibraries();
  server = await startWhipServer(sfu, { token: TOKEN });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.stop('SIGKILL')));
  for (const peer of peers) peer.close();
  await Promise.all(drivers.map((driver) => driver.close()));
  await sfu.close();
  await server?.close();
  libraries?.remove();
});

describe('WHIP/WHEP over HTTP', () => {
  it('carries simple-whip-client to a WHEP listener that joined first, and its DELETE frees it', async () => {
    const ear = await Listener.start(httpExchange(`${server.url}/whep/studio/bob`, TOKEN), {
      slots: 4,
      probeHz: [440, 1000],
    });
    peers.push(ear);
    const whip = startWhipClient({
      url: `${server.url}/whip/studio/alice?bitrate=256000`,
      token: TOKEN,
      libraries: libraries.dir,
      hz: 440,
    });
    clients.push(whip);

    const mid = await waitFor(() => ear.slotHearing(440), { what: `the whip-client's tone\n${whip.output()}` });
    await waitFor(() => (ear.slots.get(mid)?.audibleFrames ?? 0) > 50, { what: 'a second of sound' });
    expect(sfu.subscriberSlots(new URL(ear.resourceId).pathname.split('/').pop()!)).toContainEqual({
      mid,
      participant: 'alice',
      live: true,
    });

    await whip.stop('SIGINT');
    await waitFor(() => server.requests.some((r) => /^DELETE \/resources\/\S+ 200$/.test(r)), {
      what: "the whip-client's DELETE",
    });
    expect(sfu.stats().publishers).toBe(0);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'publisher-stopped', participant: 'alice', reason: 'deleted' }),
    );

    const deleted = await fetch(ear.resourceId, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(deleted.status).toBe(200);
    expect(sfu.stats()).toMatchObject({ rooms: 0, publishers: 0, subscribers: 0 });
  });

  it('forwards offers to an external WHIP/WHEP server with its bearer token and DELETEs what it made', async () => {
    const external = new ExternalWhipWhepDriver({
      whipUrl: `${server.url}/whip/{room}/{participant}?bitrate=320000`,
      whepUrl: `${server.url}/whep/{room}/{participant}`,
      bearerToken: TOKEN,
    });
    drivers.push(external);
    const seen: SfuEvent[] = [];
    external.onEvent((event) => seen.push(event));

    const pub = await TonePublisher.start(
      (offer) => external.publish('outside', 'host', offer, { maxAverageBitrate: 320_000 }),
      { leftHz: 440, rightHz: 1000 },
    );
    peers.push(pub);
    expect(pub.answerSdp).toMatch(/stereo=1;sprop-stereo=1;maxaveragebitrate=320000/);
    const ear = await Listener.start((offer) => external.subscribe('outside', 'guest', offer), {
      slots: 4,
      probeHz: [440, 1000],
    });
    peers.push(ear);
    const mid = await waitFor(() => ear.slotHearing(440, 'left'), { what: 'the tone through the external driver' });
    expect(ear.slotHearing(1000, 'right')).toBe(mid);
    expect(external.stats()).toMatchObject({ rooms: 1, publishers: 1, subscribers: 1 });
    expect(sfu.stats()).toMatchObject({ rooms: 1, publishers: 1, subscribers: 1 });

    await external.closeRoom('outside');
    expect(external.stats()).toMatchObject({ rooms: 0, publishers: 0, subscribers: 0 });
    expect(sfu.stats()).toMatchObject({ rooms: 0, publishers: 0, subscribers: 0 });
    expect(seen.map((e) => `${e.type}:${'reason' in e ? e.reason : ''}`).sort()).toEqual([
      'publisher-started:',
      'publisher-stopped:room-closed',
      'subscriber-gone:room-closed',
    ]);
    expect(await external.remove(ear.resourceId)).toBe(false);

    const stranger = new ExternalWhipWhepDriver({
      whipUrl: `${server.url}/whip/{room}/{participant}`,
      whepUrl: `${server.url}/whep/{room}/{participant}`,
      bearerToken: 'wrong',
    });
    await expect(stranger.subscribe('outside', 'guest', 'v=0\r\n')).rejects.toMatchObject({ status: 401 });
  });
});
