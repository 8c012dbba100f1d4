/** WHIP (publish) or WHEP (subscribe): the two signalling resources of a media room. */
export type SignallingKind = 'whip' | 'whep';

/**
 * A family of media endpoints routed to the node holding their room:
 * `{prefix}{code}/{between}whip|whep` and the resources under them (`…/{resourceId}`). `roomOf`
 * names the room a code leads to, or null for a code that leads nowhere (nothing is placed for it;
 * the request is answered where it arrived, by the media routes' own refusal). A new kind of room
 * declares one more of these.
 */
export interface SfuRoomRoute {
  prefix: string;
  /** What stands between the code and `whip`/`whep` (`talkback/`); nothing by default. */
  between?: string;
  roomOf(code: string, kind: SignallingKind): Promise<string | null>;
}

export interface SignallingRequest {
  route: SfuRoomRoute;
  code: string;
  kind: SignallingKind;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const patterns = new WeakMap<SfuRoomRoute, RegExp>();
const patternOf = (route: SfuRoomRoute): RegExp => {
  let pattern = patterns.get(route);
  if (!pattern) {
    pattern = new RegExp(
      `^${escape(route.prefix)}([A-Za-z0-9_-]{1,64})/${escape(route.between ?? '')}(whip|whep)(?:/[A-Za-z0-9_-]{1,128})?/?$`,
    );
    patterns.set(route, pattern);
  }
  return pattern;
};

/** The media room request a URL names, if any (the query string plays no part). */
export function matchSignalling(routes: readonly SfuRoomRoute[], url: string): SignallingRequest | null {
  const path = url.split('?', 1)[0] ?? '';
  for (const route of routes) {
    if (!path.startsWith(route.prefix)) continue;
    const match = patternOf(route).exec(path);
    if (match) return { route, code: match[1]!, kind: match[2] as SignallingKind };
  }
  return null;
}

/** Live rooms: one SFU room per session, named by the session's code. */
export function liveSfuRooms(sessions: { session(code: string): Promise<unknown> }): SfuRoomRoute {
  return {
    prefix: '/api/live/',
    roomOf: async (code) => ((await sessions.session(code)) ? `live:${code}` : null),
  };
}

/**
 * A live room's talkback: its own SFU room, placed with the room's music (the same key), so one
 * node carries everything of a session and a participant's connections all meet there.
 */
export function talkbackSfuRooms(sessions: { session(code: string): Promise<unknown> }): SfuRoomRoute {
  return { ...liveSfuRooms(sessions), between: 'talkback/' };
}

/** Broadcasts: WHIP by the broadcaster code and WHEP by the viewer code reach one room per broadcaster. */
export function broadcastSfuRooms(rooms: {
  byBroadcasterCode(code: string): Promise<{ userId: string } | null>;
  byViewerCode(code: string): Promise<{ userId: string } | null>;
}): SfuRoomRoute {
  return {
    prefix: '/api/broadcast/',
    roomOf: async (code, kind) => {
      const room = kind === 'whip' ? await rooms.byBroadcasterCode(code) : await rooms.byViewerCode(code);
      return room ? `broadcast:${room.userId}` : null;
    },
  };
}
