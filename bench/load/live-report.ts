// What the live part of the load run prints: audio continuity per minute, what the kill of an API
// node did to each room, and the end check (every listener hears its host's stereo tone).
import { percentile } from './load-metrics';
import type { LiveGuest, LiveRoom, LiveSample } from './live-rooms';
import type { NodeName } from './load-cluster';
import type { LiveStream } from './live-stream';

/** The kill of an API node during the run, with the node holding each room just before. */
export interface Kill {
  node: NodeName;
  /** performance.now() at the kill. */
  at: number;
  /** Seconds since the harness started. */
  atS: number;
  holders: (NodeName | null)[];
}

/** Audible frames per second below which a second counts as without audio (the tone gives 100). */
const SILENT_BELOW = 50;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Samples after the guest first heard the host: before that, silence is still joining. */
const heardSamples = (guest: LiveGuest): LiveSample[] =>
  guest.firstAudioAt === undefined ? [] : guest.samples.filter((s) => s.at > guest.firstAudioAt!);

/** Seconds without audio of one guest between `from` and `to` (seconds since the start). */
function silentSeconds(guest: LiveGuest, from = 0, to = Infinity): number {
  let silent = 0;
  let previous: number | undefined;
  for (const sample of heardSamples(guest)) {
    if (previous !== undefined && sample.at > from && sample.at <= to && sample.framesPerS < SILENT_BELOW)
      silent += sample.at - previous;
    previous = sample.at;
  }
  return silent;
}

export function continuityTable(rooms: LiveRoom[], harnessLag: { at: number; maxMs: number }[]): string[] {
  const guests = rooms.flatMap((r) => r.guests);
  const streams = rooms.flatMap((r) => [r.publisher, ...r.guests.map((g) => g.stream)]).filter((s) => s !== null);
  const failures = new Map<string, number>();
  for (const stream of streams)
    for (const [cause, n] of stream.failures) failures.set(cause, (failures.get(cause) ?? 0) + n);
  const lines = [
    `Live rooms: ${rooms.length}, each a team lead hosting (stereo tone) with ${guests.length} guests listening in all; ` +
      `${guests.filter((g) => g.firstAudioAt !== undefined).length} of ${guests.length} heard their host within 30 s of joining ` +
      `(join to first audio: the "live" row; each WHIP/WHEP attempt with its media token: "live-connect"). ` +
      `Reconnects: publishers ${rooms.reduce((n, r) => n + r.publisher.reconnects, 0)}, listeners ${guests.reduce((n, g) => n + (g.stream?.reconnects ?? 0), 0)}.`,
  ];
  const largest = Math.max(0, ...streams.map((s) => s.largestOfferBytes));
  const dropped = streams.reduce((n, s) => n + s.tcpCandidatesDropped, 0);
  lines.push(
    `- offers: the largest as libwebrtc made it ${Math.round(largest / 1024)} KB; TCP host candidates dropped from them: ${dropped} (see live-stream.ts: repeated under load, they pushed offers over the server's 64 KB SDP limit; the SFU uses UDP).`,
  );
  for (const [cause, n] of [...failures].sort((a, b) => b[1] - a[1]).slice(0, 6))
    lines.push(`- failed live connection attempt: ${n} × ${cause}`);
  const minutes = new Map<number, { frames: number[]; packets: number[]; silent: number; listeners: Set<LiveGuest> }>();
  for (const guest of guests) {
    let previous: number | undefined;
    for (const sample of heardSamples(guest)) {
      const minute = Math.floor(sample.at / 60);
      const row = minutes.get(minute) ?? { frames: [], packets: [], silent: 0, listeners: new Set() };
      row.frames.push(sample.framesPerS);
      row.packets.push(sample.packetsPerS);
      row.listeners.add(guest);
      if (previous !== undefined && sample.framesPerS < SILENT_BELOW) row.silent += sample.at - previous;
      previous = sample.at;
      minutes.set(minute, row);
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  lines.push(
    '',
    '| minute | listeners | audible frames/s per listener (mean / p5) | RTP packets/s per listener (mean) | listener-seconds without audio | harness event-loop delay, max ms |',
    '|---|---|---|---|---|---|',
    ...[...minutes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([minute, row]) => {
        const sorted = [...row.frames].sort((a, b) => a - b);
        const lag = harnessLag.filter((l) => Math.floor(l.at / 60) === minute).map((l) => l.maxMs);
        return `| ${minute} | ${row.listeners.size} | ${Math.round(mean(row.frames))} / ${Math.round(percentile(sorted, 5))} | ${Math.round(mean(row.packets))} | ${round1(row.silent)} | ${lag.length ? Math.round(Math.max(...lag)) : '-'} |`;
      }),
  );
  const perGuest = guests.map((g) => silentSeconds(g)).sort((a, b) => a - b);
  lines.push(
    '',
    `Seconds without audio per listener over the whole run (a second with under ${SILENT_BELOW} audible 10 ms frames): ` +
      `${perGuest.map((s) => round1(s)).join(', ') || 'none'}.`,
  );
  return lines;
}

const seconds = (fromMs: number, toMs: number) => `${round1((toMs - fromMs) / 1000)} s`;

export function failoverLines(rooms: LiveRoom[], kill: Kill | null): string[] {
  if (!kill) return ['Live failover: no API node was killed during the run.'];
  const lines = [
    `Live failover: ${kill.node} (kill -9 at ${Math.round(kill.atS)} s) held ${
      rooms.filter((_, i) => kill.holders[i] === kill.node).length
    } of ${rooms.length} rooms; everyone reconnects by the web client's rules (a dead path noticed by ICE or by the stall watch, the first attempt at once, then 1 s doubling to 32 s), through the balancer, with fresh media tokens. Each figure: heard or on air again after (gave up the old connection after, and why).`,
  ];
  /** When and why a stream first gave up its connection after the kill. */
  const lossAfter = (stream: LiveStream): string => {
    const loss = stream.losses.find((l) => l.at >= kill.at);
    return loss ? ` (${seconds(kill.at, loss.at)}, ${loss.cause})` : '';
  };
  for (const room of rooms) {
    const holder = kill.holders[room.index] ?? 'no node';
    const connected = room.publisher.connectedSince(kill.at);
    const publisher = connected
      ? `publisher on air again (connected to the new holder) after ${seconds(kill.at, connected)}${lossAfter(room.publisher)}`
      : 'publisher kept its connection';
    const listeners = room.guests.map((guest) => {
      if (!guest.stream) return 'never joined';
      const heard = guest.stream.firstAudioSince(kill.at);
      const silent = round1(silentSeconds(guest, kill.atS, kill.atS + 60));
      if (heard) return `${seconds(kill.at, heard)}${lossAfter(guest.stream)}`;
      return silent === 0 ? 'uninterrupted' : `${silent} s without audio, not reconnected`;
    });
    lines.push(
      `- Room ${room.index} on ${holder}${holder === kill.node ? ' (killed)' : ''}: ${publisher}; listeners hearing again after: ${listeners.join(', ') || 'no listeners'}.`,
    );
  }
  return lines;
}

/** The end check: each listener hears its host's tone, left and right in one slot, at full rate. */
export function listenerChecks(rooms: LiveRoom[]): string[] {
  const failed: string[] = [];
  let guests = 0;
  for (const room of rooms)
    for (const guest of room.guests) {
      guests++;
      const stream = guest.stream;
      const last = guest.samples.slice(-3);
      const who = `${guest.user.email} (room ${room.index})`;
      if (!stream) failed.push(`${who}: never joined`);
      else if (stream.halted) failed.push(`${who}: refused (401), stopped reconnecting`);
      else if (!stream.current) failed.push(`${who}: no connection (reconnecting)`);
      else if (last.length < 3 || last.some((s) => s.framesPerS < SILENT_BELOW))
        failed.push(
          `${who}: audible frames/s over the last samples: ${last.map((s) => Math.round(s.framesPerS)).join(', ')}`,
        );
      else if (!stream.hearsTone()) failed.push(`${who}: hears sound, but not the host's tone in stereo`);
    }
  const onAir = rooms.filter((r) => r.publisher.current?.peer.pc.connectionState === 'connected').length;
  const lines = [
    `live publishers connected at the end: ${onAir} of ${rooms.length}; listeners hearing their host's stereo tone at the end: ${guests - failed.length} of ${guests}`,
  ];
  if (failed.length > 0) lines.push(`NOT every live listener was hearing its host at the end: ${failed.join('; ')}`);
  return lines;
}
