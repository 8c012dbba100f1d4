import type { TalkbackToken } from '@mixroom/contracts';
import { LIVE_ERROR_CODES, LIVE_MESSAGES, type LiveParticipantRole, type PlanLimits } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { hostFacts, roleOf, type LiveRepository, type LiveSessionsService } from '../live';

export type TalkbackMode = 'publish' | 'subscribe';

/** What a talkback token says: room (guest code), user, role there, mode, and the session's start. */
interface TalkbackClaims {
  c: string;
  u: string;
  r: LiveParticipantRole;
  m: TalkbackMode;
  t: number;
}

/** What a checked talkback WHIP/WHEP request may do on the SFU. */
export interface TalkbackGrant {
  /** The live room's guest code (the URL's code). */
  code: string;
  /** The SFU room: its own namespace, so talkback never mixes with the room's music. */
  room: string;
  participant: string;
  mode: TalkbackMode;
}

export interface TalkbackDeps {
  repository: LiveRepository;
  sessions: LiveSessionsService;
  tokens: TokenSigner;
  clock: Clock;
  publicUrl: string;
  iceServers: string[];
  slotCount: number;
  limitsOf: (userId: string) => Promise<PlanLimits>;
}

/** Its own purpose: a live media token (music) is never good for talkback, nor the reverse. */
const TOKEN_PURPOSE = 'live-talkback';
/** Long enough to connect, short enough that a removed participant's token soon dies anyway. */
const TOKEN_TTL_SECONDS = 300;
/** Speech, mono in practice: far below the music's bitrate, enough for clear Opus voice. */
export const TALKBACK_BITRATE = 32_000;

export const talkbackRoom = (code: string) => `talkback:${code}`;

const unauthenticated = () => new AppError(401, LIVE_ERROR_CODES.badMediaToken, 'A valid talkback token is required.');
const refused = (message: string) => new AppError(403, LIVE_ERROR_CODES.badMediaToken, message);
const notStarted = () => new AppError(404, LIVE_ERROR_CODES.notStarted, LIVE_MESSAGES.notStarted);

/**
 * Who may talk and listen in a live room's talkback: every participant admitted to the room as it
 * is now (host, co-host, guest who joined with the current code), nobody else. Every WHIP/WHEP
 * request checks its token and then the room again, so a guest who left, a regenerated code or an
 * ended session refuse at once, whatever the token's lifetime.
 */
export class TalkbackService {
  constructor(private readonly deps: TalkbackDeps) {}

  async mint(actor: Actor, code: string, mode: TalkbackMode): Promise<TalkbackToken> {
    const found = await this.deps.sessions.find(actor, code);
    if (!found?.mine || found.session.status === 'ended' || found.session.status === 'expired') throw notStarted();
    const { session, mine } = found;
    const role = roleOf(mine, hostFacts(await this.deps.limitsOf(session.hostId)));
    const claims: TalkbackClaims = {
      c: session.code,
      u: actor.userId,
      r: role,
      m: mode,
      t: session.startTime.getTime(),
    };
    return {
      token: this.deps.tokens.sign(TOKEN_PURPOSE, claims, TOKEN_TTL_SECONDS),
      mode,
      role,
      expiresAt: this.deps.clock.now().getTime() + TOKEN_TTL_SECONDS * 1000,
      url: `${this.deps.publicUrl}/api/live/${session.code}/talkback/${mode === 'publish' ? 'whip' : 'whep'}`,
      iceServers: this.deps.iceServers.map((urls) => ({ urls })),
      slotCount: this.deps.slotCount,
      bitrate: TALKBACK_BITRATE,
    };
  }

  /** Checks a talkback WHIP/WHEP bearer against the room as it is now. */
  async authorize(bearer: string | null, code: string, mode: TalkbackMode): Promise<TalkbackGrant> {
    const claims = bearer ? this.deps.tokens.verify<TalkbackClaims>(TOKEN_PURPOSE, bearer) : null;
    if (!claims) throw unauthenticated();
    if (claims.c !== code || claims.m !== mode) throw refused('This talkback token is not for this room.');
    if (!(await this.isAdmitted(code, claims.u, claims.t))) throw refused(LIVE_MESSAGES.notStarted);
    return { code, room: talkbackRoom(code), participant: claims.u, mode };
  }

  /** Whether the user still has a place in the session that started at `startedAt` (ms). */
  async isAdmitted(code: string, userId: string, startedAt?: number): Promise<boolean> {
    const session = await this.deps.repository.session(code);
    if (!session || session.status === 'ended' || session.status === 'expired') return false;
    if (startedAt !== undefined && session.startTime.getTime() !== startedAt) return false;
    return (await this.deps.repository.stream(code, userId)) !== null;
  }
}
