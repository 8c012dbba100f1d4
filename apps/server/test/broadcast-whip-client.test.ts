import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClock } from '../src/platform/clock/clock';
import { accessOf, broadcastApi, broadcastRoomOf, setCanBroadcast, tokenExchange } from './helpers/broadcast';
import { startClockedServer } from './helpers/clocked-server';
import { liveUser, type LiveUser } from './helpers/live';
import { Listener } from './helpers/rtc-clients';
import { buildWhipClientLibraries, startWhipClient, type WhipClient } from './helpers/rtc-whip-client';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * A WHIP encoder Mixroom did not write (Debian's simple-whip-client, GStreamer) publishes into a
 * broadcast with the stream key from the Broadcaster card; a signed-out WHEP listener hears it.
 */
let server: TestServer & { clock: TestClock };
let caster: LiveUser;
let libraries: ReturnType<typeof buildWhipClientLibraries>;
const clients: WhipClient[] = [];
const peers: { close(): void }[] = [];

beforeAll(async () => {
  libraries = buildWhipClientLibraries();
  server = await startClockedServer();
  caster = await liveUser(server, 'whip-caster');
  await setCanBroadcast(server, caster.id, true);
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.stop('SIGKILL')));
  for (const peer of peers) peer.close();
  await server?.close();
  libraries?.remove();
});

describe('WHIP ingest with a stream key', () => {
  it('carries simple-whip-client to a signed-out WHEP listener; its DELETE ends the broadcast', async () => {
    const api = broadcastApi(server, caster);
    const room = broadcastRoomOf(await api.room());
    const { streamKey, whipUrl } = (await api.streamKey()).body as { streamKey: string; whipUrl: string };
    const access = accessOf(await broadcastApi(server, null).publicAccess(room.viewerCode));
    const ear = await Listener.start(tokenExchange(server, access.media), { slots: 1, probeHz: [440, 1000] });
    peers.push(ear);

    const whip = startWhipClient({
      url: `${server.url}${new URL(whipUrl).pathname}`,
      token: streamKey,
      libraries: libraries.dir,
      hz: 440,
    });
    clients.push(whip);
    await waitFor(() => ear.slotHearing(440), { what: `the whip-client's tone\n${whip.output()}`, timeoutMs: 60_000 });
    await waitFor(() => ([...ear.slots.values()][0]?.audibleFrames ?? 0) > 50, { what: 'a second of sound' });
    expect((await broadcastApi(server, null).publicView(room.viewerCode)).body.state).toBe('live');

    await whip.stop('SIGINT');
    await waitFor(async () => (await broadcastApi(server, null).publicView(room.viewerCode)).body.state === 'ended', {
      what: 'the broadcast ended by the encoder stopping',
    });
  });

  it('refuses simple-whip-client with a replaced key (401) and publishes nothing', async () => {
    const api = broadcastApi(server, caster);
    const old = ((await api.streamKey()).body as { streamKey: string; whipUrl: string }).streamKey;
    const { whipUrl } = (await api.streamKey()).body as { whipUrl: string };
    const whip = startWhipClient({
      url: `${server.url}${new URL(whipUrl).pathname}`,
      token: old,
      libraries: libraries.dir,
      hz: 440,
    });
    clients.push(whip);
    await waitFor(() => /401/.test(whip.output()), { what: `a 401 in the client's output\n${whip.output()}` });
    expect(broadcastRoomOf(await api.room()).state).not.toBe('live');
  });
});
