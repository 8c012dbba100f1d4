import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import type { SfuEvent } from '../src/platform/rtc/sfu-driver';
import { WeriftSfu } from '../src/platform/rtc/werift-sfu';
import { type Exchange, Listener, TonePublisher } from './helpers/rtc-clients';
import { waitFor } from './helpers/wait-for';

/**
 * The embedded SFU with headless libwebrtc peers (@roamhq/wrtc) on both sides: what a listener
 * decodes is what a browser would decode. Tones tell streams and channels apart.
 */
const SLOTS = 4;
const DEAD_PEER_MS = 15_000;
const clock = new TestClock(new Date('2026-12-01T10:00:00Z'));
const sfu = new WeriftSfu({ clock, slotCount: SLOTS, deadPeerTimeoutMs: DEAD_PEER_MS });
const events: SfuEvent[] = [];
sfu.onEvent((event) => events.push(event));
const peers: { close(): void }[] = [];

const publishTo =
  (room: string, participant: string, maxAverageBitrate = 320_000, lossless = false): Exchange =>
  (offer) =>
    sfu.publish(room, participant, offer, { maxAverageBitrate, lossless });
const subscribeTo =
  (room: string, participant: string): Exchange =>
  (offer) =>
    sfu.subscribe(room, participant, offer);

async function publisher(exchange: Exchange, leftHz: number, rightHz: number, dataChannel = false) {
  const p = await TonePublisher.start(exchange, { leftHz, rightHz }, { dataChannel });
  peers.push(p);
  return p;
}

async function listener(exchange: Exchange, probeHz: number[], dataChannel = false) {
  const l = await Listener.start(exchange, { slots: SLOTS, probeHz, dataChannel });
  peers.push(l);
  return l;
}

afterEach(async () => {
  for (const peer of peers.splice(0)) peer.close();
  await sfu.close();
  events.length = 0;
});

afterAll(async () => {
  await sfu.close();
});

describe('embedded SFU (werift) with libwebrtc peers', () => {
  it('carries a stereo tone pair: the listener decodes left and right apart, as sent', async () => {
    const pub = await publisher(publishTo('stereo', 'host', 320_000), 440, 1000);
    expect(pub.answerSdp).toMatch(/a=fmtp:\d+ [^\r\n]*stereo=1;sprop-stereo=1;maxaveragebitrate=320000/);
    expect(pub.answerSdp).toContain('usedtx=0');
    expect(pub.answerSdp).not.toMatch(/red\/48000/);
    const ear = await listener(subscribeTo('stereo', 'guest'), [440, 1000]);

    const mid = await waitFor(() => ear.slotHearing(440, 'left'), { what: '440 Hz on the left' });
    expect(ear.slotHearing(1000, 'right')).toBe(mid);
    const slot = ear.slots.get(mid)!;
    expect(slot.stereoFrames).toBeGreaterThan(0);
    expect(slot.power.left.get(440)!).toBeGreaterThan(10 * slot.power.right.get(440)!);
    expect(slot.power.right.get(1000)!).toBeGreaterThan(10 * slot.power.left.get(1000)!);
    expect(sfu.subscriberSlots(ear.resourceId)).toContainEqual({ mid, participant: 'host', live: true });
    expect(sfu.stats()).toMatchObject({ rooms: 1, publishers: 1, subscribers: 1 });
    expect(sfu.stats().bytesOut).toBeGreaterThan(0);
  });

  it("sends by its own path what werift's sender reports: the listener's sender reports match what it received", async () => {
    await publisher(publishTo('reports', 'host', 320_000), 440, 1000);
    const ear = await listener(subscribeTo('reports', 'guest'), [440]);
    const mid = await waitFor(() => ear.slotHearing(440, 'left'), { what: '440 Hz' });
    // werift sends a sender report every 0.5–1.5 s; the listener's stats show the latest one.
    const reported = await waitFor(
      async () => {
        const stats = [...(await ear.pc.getStats()).values()];
        const inbound = stats.find((s) => s.type === 'inbound-rtp' && s.mid === mid && Number(s.packetsReceived) > 100);
        const remote = stats.find((s) => s.type === 'remote-outbound-rtp' && s.ssrc === inbound?.ssrc);
        return inbound && remote && Number(remote.packetsSent) > 100 ? { inbound, remote } : undefined;
      },
      { what: 'a sender report for the slot', timeoutMs: 20_000 },
    );
    // The report counts what was sent up to its moment; the listener has received at least that.
    expect(Number(reported.remote.packetsSent)).toBeLessThanOrEqual(Number(reported.inbound.packetsReceived) + 50);
    expect(Number(reported.remote.bytesSent)).toBeGreaterThan(Number(reported.remote.packetsSent) * 100);
  });

  it('keeps a listener on the same slot when the publisher republishes at another bitrate', async () => {
    const first = await publisher(publishTo('republish', 'host', 128_000), 440, 440);
    const ear = await listener(subscribeTo('republish', 'guest'), [440, 660]);
    const mid = await waitFor(() => ear.slotHearing(440), { what: 'the first stream' });

    const second = await TonePublisher.restart(first, publishTo('republish', 'host', 256_000), {
      leftHz: 660,
      rightHz: 660,
    });
    peers.push(second);
    expect(second.answerSdp).toContain('maxaveragebitrate=256000');
    // Same peer connection, same slot, no new offer: the new tone simply arrives.
    await waitFor(() => ear.slotHearing(660) === mid, { what: 'the republished stream on the same slot' });
    expect(ear.pc.connectionState).toBe('connected');
    await waitFor(() => events.some((e) => e.type === 'publisher-stopped' && e.reason === 'replaced'), {
      what: 'the old stream replaced',
    });
    expect(sfu.stats()).toMatchObject({ publishers: 1, subscribers: 1 });
    expect(sfu.subscriberSlots(ear.resourceId)!.filter((s) => s.participant === 'host')).toEqual([
      { mid, participant: 'host', live: true },
    ]);
  });

  it('gives a listener every other publisher of the room on its own slot, and no one hears themself', async () => {
    await publisher(publishTo('duo', 'ana'), 440, 440);
    const bea = await listener(subscribeTo('duo', 'bea'), [440, 880]);
    // Bea publishes after she subscribed: her listener gets no slot for her, Ana's gets one.
    await publisher(publishTo('duo', 'bea'), 880, 880);
    const ana = await listener(subscribeTo('duo', 'ana'), [440, 880]);
    const cid = await listener(subscribeTo('duo', 'cid'), [440, 880]);

    const anaOnCid = await waitFor(() => cid.slotHearing(440), { what: "Ana's tone at Cid" });
    const beaOnCid = await waitFor(() => cid.slotHearing(880), { what: "Bea's tone at Cid" });
    expect(anaOnCid).not.toBe(beaOnCid);
    await waitFor(() => ana.slotHearing(880), { what: "Bea's tone at Ana" });
    await waitFor(() => bea.slotHearing(440), { what: "Ana's tone at Bea" });
    expect(ana.slotHearing(440)).toBeUndefined();
    expect(bea.slotHearing(880)).toBeUndefined();
    expect(sfu.subscriberSlots(ana.resourceId)!.map((s) => s.participant)).not.toContain('ana');
    expect(sfu.subscriberSlots(bea.resourceId)!.filter((s) => s.participant !== null)).toEqual([
      expect.objectContaining({ participant: 'ana', live: true }),
    ]);
  });

  it('relays a lossless publisher’s data channel to each listener, bytes unchanged', async () => {
    const pub = await publisher(publishTo('lossless', 'host', 320_000, true), 440, 440, true);
    const ear = await listener(subscribeTo('lossless', 'guest'), [440], true);
    await waitFor(() => pub.channel!.readyState === 'open', { what: 'the publisher channel' });
    const frames = [Buffer.from([0, 1, 2, 255, 254]), Buffer.alloc(16_000, 7), Buffer.from('pcm\u0000frame')];
    // The relay opens toward the listener once it knows the publisher's channel; resend until it arrives.
    await waitFor(
      () => {
        if (ear.messages.length === 0) pub.channel!.send(frames[0]!);
        return ear.messages.length > 0;
      },
      { what: 'the relay channel', intervalMs: 100 },
    );
    const already = ear.messages.length;
    for (const frame of frames) pub.channel!.send(frame);
    await waitFor(() => ear.messages.length >= already + frames.length, { what: 'the frames' });
    expect(ear.messages.slice(already).map((m) => m.data)).toEqual(frames);
    expect(ear.messages[0]).toMatchObject({ label: 'lossless', protocol: 'host' });
  });

  it('frees a DELETEd resource at once, and a closed or silent one after the dead-peer timeout', async () => {
    const pub = await publisher(publishTo('dead', 'host'), 440, 440);
    const ear = await listener(subscribeTo('dead', 'guest'), [440]);
    const gone = await listener(subscribeTo('dead', 'ghost'), [440]);
    await waitFor(() => ear.slotHearing(440) && gone.slotHearing(440), { what: 'the stream at both' });

    expect(await sfu.remove(ear.resourceId)).toBe(true);
    expect(await sfu.remove(ear.resourceId)).toBe(false);
    expect(sfu.stats()).toMatchObject({ rooms: 1, publishers: 1, subscribers: 1 });
    expect(events).toContainEqual(expect.objectContaining({ type: 'subscriber-gone', reason: 'deleted' }));

    // A listener whose tab closed without a DELETE, and a publisher gone silent (a killed encoder):
    // werift would notice them only when ICE consent expires; the watchdog frees them on its timeout.
    gone.close();
    pub.silence();
    clock.advance(DEAD_PEER_MS - 1);
    expect(sfu.stats().publishers).toBe(1);
    clock.advance(1);
    await waitFor(() => sfu.stats().subscribers === 0, { what: 'the closed listener freed' });
    expect(sfu.stats()).toMatchObject({ rooms: 0, publishers: 0, subscribers: 0 });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'publisher-stopped', participant: 'host', reason: 'timeout' }),
    );
    expect(events).toContainEqual(expect.objectContaining({ type: 'subscriber-gone', participant: 'ghost' }));
  });

  it('refuses offers it cannot carry', async () => {
    await expect(sfu.publish('r', 'p', 'v=0\r\n', { maxAverageBitrate: 128_000 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(sfu.publish('r', 'p', 'v=0\r\n', { maxAverageBitrate: 900_000 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(sfu.subscribe('r', 'p', 'v=0\r\n')).rejects.toMatchObject({ status: 400 });
    expect(sfu.stats()).toMatchObject({ rooms: 0, publishers: 0, subscribers: 0 });

    const small = new WeriftSfu({ clock, slotCount: 1 });
    try {
      const into =
        (participant: string): Exchange =>
        (offer) =>
          small.publish('full', participant, offer, { maxAverageBitrate: 96_000 });
      peers.push(await TonePublisher.start(into('ana'), { leftHz: 440, rightHz: 440 }));
      await expect(TonePublisher.start(into('bea'), { leftHz: 440, rightHz: 440 })).rejects.toMatchObject({
        status: 409,
        code: 'ROOM_FULL',
      });
      // Ana may still republish: her own slot is hers.
      peers.push(await TonePublisher.start(into('ana'), { leftHz: 660, rightHz: 660 }));
      await waitFor(() => small.stats().publishers === 1, { what: "Ana's new stream taking over" });
    } finally {
      await small.close();
    }
  });
});
