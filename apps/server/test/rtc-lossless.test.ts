import { afterAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { DatagramLoss } from '../src/platform/rtc/datagram-loss';
import { WeriftSfu } from '../src/platform/rtc/werift-sfu';
import { decodeMessages, identicalToSent, LosslessSender } from './helpers/lossless-signal';
import { type Exchange, Listener, TonePublisher } from './helpers/rtc-clients';
import { waitFor } from './helpers/wait-for';

/**
 * Lossless mode through the embedded SFU with 2 % of the SFU's datagrams dropped, both ways: a
 * libwebrtc publisher (@roamhq/wrtc) sends a known 24-bit stereo signal as PCM frames on its ordered,
 * reliable data channel, beside its Opus track; a libwebrtc listener gets the relayed channel.
 * SCTP retransmits what the link lost, so every sample arrives as sent.
 */
const clock = new TestClock(new Date('2026-12-01T10:00:00Z'));
const loss = new DatagramLoss(0.02);
const sfu = new WeriftSfu({ clock, slotCount: 2, datagramLoss: loss });
/** Four seconds of audio after the relay is open: about 2,800 datagrams through the lossy link. */
const FRAMES_AFTER_OPEN = 400;

afterAll(async () => {
  await sfu.close();
});

describe('lossless mode over the SFU with 2 % packet loss', () => {
  it('the samples a listener receives are bit-identical to those sent, in order, none missing', async () => {
    const publish: Exchange = (offer) =>
      sfu.publish('room', 'host', offer, { maxAverageBitrate: 320_000, lossless: true });
    const subscribe: Exchange = (offer) => sfu.subscribe('room', 'guest', offer);
    const pub = await TonePublisher.start(publish, { leftHz: 440, rightHz: 440 }, { dataChannel: true });
    const ear = await Listener.start(subscribe, { slots: 2, probeHz: [440], dataChannel: true });
    const sender = new LosslessSender(pub.channel!);
    try {
      await waitFor(() => pub.channel!.readyState === 'open', { what: 'the publisher channel' });
      sender.start();
      // The relay toward the listener opens once the SFU knows the channel; frames before that are
      // not relayed (a listener joins a stream already running). From its first frame on, all count.
      await waitFor(() => ear.messages.length > 0, { what: 'the first relayed frame' });
      const first = decodeMessages(ear.messages)[0]!.frame.sequence;
      await waitFor(() => sender.sent >= first + FRAMES_AFTER_OPEN, { what: 'four seconds sent', timeoutMs: 60_000 });
      sender.stop();
      const last = sender.sent - 1;
      await waitFor(() => decodeMessages(ear.messages).at(-1)?.frame.sequence === last, {
        what: 'the last frame at the listener',
        timeoutMs: 60_000,
      });

      const received = decodeMessages(ear.messages);
      expect(received.map((r) => r.frame.sequence)).toEqual(
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
      );
      expect(received.every((r) => identicalToSent(r.frame))).toBe(true);
      expect(ear.messages.every((m) => m.label === 'lossless' && m.protocol === 'host')).toBe(true);
      // The loss was real: about 2 % of what crossed the SFU's sockets once connected.
      const total = loss.dropped + loss.passed;
      expect(total).toBeGreaterThan(2000);
      expect(loss.dropped / total).toBeGreaterThan(0.01);
      expect(loss.dropped / total).toBeLessThan(0.03);
      // Beside the PCM, the Opus track still plays (the fallback when lossless stops).
      await waitFor(() => ear.slotHearing(440), { what: 'the Opus track' });
    } finally {
      sender.stop();
      pub.close();
      ear.close();
    }
  });
});
