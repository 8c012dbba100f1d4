/**
 * SDP edits for music. werift answers with the Opus fmtp of the remote offer (Chromium offers
 * `minptime=10;useinbandfec=1`), which makes a Chromium publisher encode mono at ~32 kbit/s. The
 * answer has to say `stereo=1;sprop-stereo=1` and `maxaveragebitrate`; DTX (silence suppression)
 * and RED (redundant packets) are off because they hurt music and waste bandwidth at high rates.
 */

export interface MusicOpusOptions {
  maxAverageBitrate: number;
}

export interface OfferedMedia {
  kind: string;
  mid: string | null;
  /** The offerer's direction (sendrecv when the m-line says none). */
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
  /** Rejected m-lines (port 0) carry nothing. */
  rejected: boolean;
  hasOpus: boolean;
}

export interface IceCandidateLine {
  candidate: string;
  sdpMid: string | null;
}

const DIRECTIONS = ['sendrecv', 'sendonly', 'recvonly', 'inactive'] as const;

function splitLines(sdp: string): string[] {
  return sdp.split(/\r?\n/).filter((line) => line.length > 0);
}

function joinLines(lines: string[]): string {
  return `${lines.join('\r\n')}\r\n`;
}

/** Splits an SDP into its session part and its m-sections (each starting with its `m=` line). */
function sections(sdp: string): { session: string[]; media: string[][] } {
  const session: string[] = [];
  const media: string[][] = [];
  for (const line of splitLines(sdp)) {
    if (line.startsWith('m=')) media.push([line]);
    else if (media.length > 0) media[media.length - 1]!.push(line);
    else session.push(line);
  }
  return { session, media };
}

function opusPayloadTypes(section: string[]): string[] {
  return section
    .map((line) => /^a=rtpmap:(\d+) opus\/48000/i.exec(line)?.[1])
    .filter((pt): pt is string => pt !== undefined);
}

function redPayloadTypes(section: string[]): string[] {
  return section.map((line) => /^a=rtpmap:(\d+) red\//i.exec(line)?.[1]).filter((pt): pt is string => pt !== undefined);
}

/** Parses `a=fmtp` parameters, keeping their order. */
function parseFmtp(value: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of value.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key) params.set(key.toLowerCase(), rest.join('='));
  }
  return params;
}

function formatFmtp(params: Map<string, string>): string {
  return [...params].map(([key, value]) => (value === '' ? key : `${key}=${value}`)).join(';');
}

/** Rewrites one Opus fmtp line (or adds one after the rtpmap) with the given parameters merged in. */
function withOpusParams(section: string[], pt: string, set: Record<string, string>, drop: string[]): string[] {
  const fmtpPrefix = `a=fmtp:${pt} `;
  const index = section.findIndex((line) => line.startsWith(fmtpPrefix));
  const params = parseFmtp(index >= 0 ? section[index]!.slice(fmtpPrefix.length) : '');
  for (const key of drop) params.delete(key);
  for (const [key, value] of Object.entries(set)) params.set(key, value);
  const line = `${fmtpPrefix}${formatFmtp(params)}`;
  const out = [...section];
  if (index >= 0) out[index] = line;
  else out.splice(out.findIndex((l) => l.startsWith(`a=rtpmap:${pt} `)) + 1, 0, line);
  return out;
}

/** Drops RED from an audio m-section's formats and attributes (an offer may propose it). */
function withoutRed(section: string[]): string[] {
  const red = new Set(redPayloadTypes(section));
  if (red.size === 0) return section;
  return section
    .map((line, index) => {
      if (index !== 0) return line;
      const [media, port, proto, ...formats] = line.split(' ');
      return [media, port, proto, ...formats.filter((pt) => !red.has(pt))].join(' ');
    })
    .filter((line) => {
      const pt = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+)/.exec(line)?.[1];
      return pt === undefined || !red.has(pt);
    });
}

/** The answer's Opus set for music: stereo both ways, the asked average bitrate, FEC on, DTX off. */
export function musicAnswerSdp(answerSdp: string, options: MusicOpusOptions): string {
  const { session, media } = sections(answerSdp);
  const edited = media.map((section) => {
    if (!section[0]!.startsWith('m=audio')) return section;
    let out = withoutRed(section);
    for (const pt of opusPayloadTypes(out)) {
      out = withOpusParams(
        out,
        pt,
        {
          minptime: '10',
          useinbandfec: '1',
          stereo: '1',
          'sprop-stereo': '1',
          maxaveragebitrate: String(Math.round(options.maxAverageBitrate)),
          usedtx: '0',
        },
        ['cbr'],
      );
    }
    return out;
  });
  return joinLines([...session, ...edited.flat()]);
}

/**
 * What a WHEP client writes into its own offer before setLocalDescription so that libwebrtc
 * (Chromium, wrtc) builds a stereo Opus decoder; without it the receiver downmixes to mono.
 */
export function preferStereoOpus(offerSdp: string): string {
  const { session, media } = sections(offerSdp);
  const edited = media.map((section) => {
    if (!section[0]!.startsWith('m=audio')) return section;
    let out = section;
    for (const pt of opusPayloadTypes(out)) out = withOpusParams(out, pt, { stereo: '1', 'sprop-stereo': '1' }, []);
    return out;
  });
  return joinLines([...session, ...edited.flat()]);
}

/** The m-lines of an offer, as far as the SFU needs them to accept or refuse it. */
export function describeOffer(offerSdp: string): OfferedMedia[] {
  return sections(offerSdp).media.map((section) => {
    const [kind = '', port = '0'] = section[0]!.slice(2).split(' ');
    const direction = DIRECTIONS.find((d) => section.includes(`a=${d}`)) ?? 'sendrecv';
    const mid = section.find((line) => line.startsWith('a=mid:'))?.slice('a=mid:'.length) ?? null;
    return { kind, mid, direction, rejected: port === '0', hasOpus: opusPayloadTypes(section).length > 0 };
  });
}

/**
 * The candidates of a trickle-ICE SDP fragment (WHIP/WHEP PATCH, RFC 8840), each with the mid of
 * the m-section it follows (or of the whole fragment when it names one before any m-line).
 */
export function candidatesOfFragment(fragment: string): IceCandidateLine[] {
  const found: IceCandidateLine[] = [];
  let mid: string | null = null;
  for (const line of splitLines(fragment)) {
    if (line.startsWith('m=')) mid = null;
    else if (line.startsWith('a=mid:')) mid = line.slice('a=mid:'.length);
    else if (line.startsWith('a=candidate:')) found.push({ candidate: line.slice(2), sdpMid: mid });
  }
  return found;
}
