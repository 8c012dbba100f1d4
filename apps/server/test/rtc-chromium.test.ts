import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { WeriftSfu } from '../src/platform/rtc/werift-sfu';
import { Listener, TonePublisher } from './helpers/rtc-clients';
import { waitFor } from './helpers/wait-for';

/**
 * Debian's Chromium on both sides of the embedded SFU: a page publishes two oscillators as one
 * stereo track, and a page listens with the stereo edit in its offer. The tones tell the channels
 * apart (headless Chromium reports no audio levels in its stats, so the page measures with Web Audio).
 */
const sfu = new WeriftSfu({ clock: new TestClock(new Date('2026-12-01T10:00:00Z')), slotCount: 2 });
let browser: Browser;
let page: Page;
const peers: { close(): void }[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--no-first-run'],
  });
  page = await browser.newPage();
  await page.exposeFunction('whipExchange', async (offer: string) => {
    return (await sfu.publish('chromium', 'page', offer, { maxAverageBitrate: 320_000 })).answerSdp;
  });
  await page.exposeFunction('whepExchange', async (offer: string) => {
    return (await sfu.subscribe('chromium', 'page-listener', offer)).answerSdp;
  });
});

afterAll(async () => {
  for (const peer of peers) peer.close();
  await browser?.close();
  await sfu.close();
});

/** Plain JavaScript run in the page (this workspace compiles without the DOM's types). */
const PUBLISH_IN_PAGE = `async () => {
  const ctx = new AudioContext({ sampleRate: 48000 });
  const merger = ctx.createChannelMerger(2);
  const tones = [440, 1000].map((hz, channel) => {
    const osc = ctx.createOscillator();
    osc.frequency.value = hz;
    osc.connect(merger, 0, channel);
    osc.start();
    return osc;
  });
  const destination = ctx.createMediaStreamDestination();
  destination.channelCount = 2;
  merger.connect(destination);
  const pc = new RTCPeerConnection();
  pc.addTransceiver(destination.stream.getAudioTracks()[0], { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
  });
  await pc.setRemoteDescription({ type: 'answer', sdp: await window.whipExchange(pc.localDescription.sdp) });
  window.publisher = { pc, tones };
}`;

const PUBLISHER_STATS = `async () => {
  const out = { targetBitrate: 0, channels: 0, fmtp: '' };
  (await window.publisher.pc.getStats()).forEach((s) => {
    if (s.type === 'outbound-rtp') out.targetBitrate = s.targetBitrate;
    if (s.type === 'codec' && /opus/i.test(s.mimeType)) { out.channels = s.channels; out.fmtp = s.sdpFmtpLine; }
  });
  return out;
}`;

/** Listens on two slots; each slot's channels go through an analyser of their own. */
const LISTEN_IN_PAGE = `async () => {
  const ctx = new AudioContext({ sampleRate: 48000 });
  const pc = new RTCPeerConnection();
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  window.ears = [];
  pc.ontrack = ({ track }) => {
    const stream = new MediaStream([track]);
    // Chromium plays a remote track into Web Audio only while a media element also consumes it.
    const element = new Audio();
    element.srcObject = stream;
    element.muted = true;
    element.play().catch(() => {});
    const splitter = ctx.createChannelSplitter(2);
    ctx.createMediaStreamSource(stream).connect(splitter);
    const analysers = [0, 1].map((channel) => {
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 4096;
      splitter.connect(analyser, channel);
      return analyser;
    });
    window.ears.push({ element, analysers });
  };
  // The stereo edit a WHEP page makes (preferStereoOpus on the server side does the same).
  const offer = await pc.createOffer();
  const opus = /a=rtpmap:(\\d+) opus\\/48000/i.exec(offer.sdp)[1];
  const sdp = offer.sdp.replace(new RegExp('(a=fmtp:' + opus + ' [^\\r\\n]*)', 'g'), '$1;stereo=1;sprop-stereo=1');
  await pc.setLocalDescription({ type: 'offer', sdp });
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
  });
  await pc.setRemoteDescription({ type: 'answer', sdp: await window.whepExchange(pc.localDescription.sdp) });
  window.listener = pc;
  await ctx.resume();
}`;

/** The level (dB) at 440 Hz and 1000 Hz of each channel of each slot. */
const LISTENER_LEVELS = `() => window.ears.map(({ analysers }) => analysers.map((analyser) => {
  const bins = new Float32Array(analyser.frequencyBinCount);
  analyser.getFloatFrequencyData(bins);
  const at = (hz) => bins[Math.round((hz / 48000) * analyser.fftSize)];
  return { a440: at(440), a1000: at(1000) };
}))`;

interface Level {
  a440: number;
  a1000: number;
}

describe('embedded SFU with Chromium', () => {
  it('takes a stereo track from a page at 320 kbit/s and gives it, stereo, to a wrtc listener', async () => {
    const ear = await Listener.start((offer) => sfu.subscribe('chromium', 'node', offer), {
      slots: 2,
      probeHz: [440, 1000],
    });
    peers.push(ear);
    await page.evaluate(`(${PUBLISH_IN_PAGE})()`);
    const mid = await waitFor(() => ear.slotHearing(440, 'left'), { what: "the page's left tone" });
    expect(ear.slotHearing(1000, 'right')).toBe(mid);
    const stats = await page.evaluate<{ targetBitrate: number; channels: number; fmtp: string }>(
      `(${PUBLISHER_STATS})()`,
    );
    expect(stats).toMatchObject({ targetBitrate: 320_000, channels: 2 });
    expect(stats.fmtp).toMatch(/stereo=1/);
  });

  it('plays a wrtc publisher to a page in stereo when the page asks for stereo in its offer', async () => {
    peers.push(
      await TonePublisher.start(
        (offer) => sfu.publish('chromium', 'node-publisher', offer, { maxAverageBitrate: 256_000 }),
        { leftHz: 1000, rightHz: 440 },
      ),
    );
    await page.evaluate(`(${LISTEN_IN_PAGE})()`);
    // Some slot's left channel carries 1000 Hz well above 440 Hz, and its right channel the reverse.
    let levels: Level[][] = [];
    const apart = () => levels.some(([l, r]) => l!.a1000 > l!.a440 + 20 && r!.a440 > r!.a1000 + 20);
    await waitFor(
      async () => {
        levels = await page.evaluate<Level[][]>(`(${LISTENER_LEVELS})()`);
        return apart();
      },
      { what: 'the tones on their own channels in the page' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last levels (dB) per slot and channel: ${JSON.stringify(levels)}`);
    });
  });
});
