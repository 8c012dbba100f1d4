import type { LiveSession, LiveStream } from '@mixroom/contracts';
import type { LiveParticipantRole } from '@mixroom/shared';
import type { LiveSessionRow, LiveStreamRow } from './live.repository';

export interface HostFacts {
  guestLimit: number;
  coHostAllowed: boolean;
  recordingAllowed: boolean;
}

export type UserCard = { id: string; displayName: string; photoUrl: string | null };

/** The caller's part in a session: host, co-host (a guest the host enabled on a plan with co-hosts) or guest. */
export function roleOf(stream: LiveStreamRow, host: Pick<HostFacts, 'coHostAllowed'>): LiveParticipantRole {
  if (stream.isHost) return 'host';
  return stream.isEnabled && host.coHostAllowed ? 'cohost' : 'guest';
}

function presentStream(row: LiveStreamRow, card: UserCard | undefined): LiveStream {
  return {
    userId: row.userId,
    isEnabled: row.isHost || row.isEnabled,
    isHost: row.isHost,
    streamName: row.userId,
    timestamp: row.updatedAt.getTime(),
    instanceId: row.instanceId,
    isOnline: row.isOnline,
    displayName: card?.displayName ?? '',
    photoUrl: card?.photoUrl ?? null,
    source: row.source === 0 || row.source === 1 ? row.source : null,
    bitrate: row.bitrate,
  };
}

/** A session as one participant sees it: the host code only for the host. */
export function presentSession(input: {
  session: LiveSessionRow;
  streams: LiveStreamRow[];
  cards: UserCard[];
  host: HostFacts;
  viewer: LiveStreamRow;
  now: Date;
}): LiveSession {
  const { session, streams, cards, host, viewer, now } = input;
  const byId = new Map(cards.map((c) => [c.id, c]));
  const role = roleOf(viewer, host);
  const remainingMs = session.maxDurationMs === null ? null : Math.max(0, session.maxDurationMs - session.elapsedMs);
  return {
    code: session.code,
    availability: session.status === 'active' ? 'ACTIVE' : 'EXPIRED',
    liveUrl: session.liveUrl,
    liveStreamingUrl: null,
    userId: session.hostId,
    hostRoomCode: role === 'host' ? session.hostCode : null,
    countdownTime: session.countdownTime,
    streams: streams
      .sort((a, b) => Number(b.isHost) - Number(a.isHost) || a.updatedAt.getTime() - b.updatedAt.getTime())
      .map((row) => presentStream(row, byId.get(row.userId))),
    lastUpdate: session.lastUpdate.getTime(),
    startTime: session.startTime.getTime(),
    currentTime: now.getTime(),
    bitrate: session.bitrate,
    maxDurationMs: session.maxDurationMs,
    remainingMs,
    guestLimit: host.guestLimit,
    coHostAllowed: host.coHostAllowed,
    recordingAllowed: host.recordingAllowed,
    you: {
      userId: viewer.userId,
      role,
      canPublish: session.status === 'active' && role !== 'guest',
      instanceId: viewer.instanceId,
    },
  };
}
