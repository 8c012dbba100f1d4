import type { LiveMediaToken, UploadTicket } from '@mixroom/contracts';
import { LIVE_ERROR_CODES, LIVE_MESSAGES, type PlanLimits, type PlanSku } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { notStarted } from './live-codes';
import { hostFacts, type LiveSessionsService } from './live-sessions.service';
import { roleOf } from './live.presenter';
import type { LiveRepository, LiveSessionRow } from './live.repository';

export type MediaMode = 'publish' | 'subscribe';

/** What a media token says: room (guest code), user, mode, and the session it was minted for (start time). */
interface MediaClaims {
  c: string;
  u: string;
  m: MediaMode;
  t: number;
}

/** What a checked WHIP/WHEP request may do on the SFU. */
export interface MediaGrant {
  room: string;
  participant: string;
  mode: MediaMode;
  bitrate: number;
  lossless: boolean;
}

const TOKEN_PURPOSE = 'live-media';
/** Long enough to connect (and trickle), short enough that a revoked guest's token soon dies anyway. */
const TOKEN_TTL_SECONDS = 300;
/** Plans whose publishers may add lossless PCM on a data channel. */
const LOSSLESS_SKUS: readonly PlanSku[] = ['STUDIO', 'LIVE_BASIC', 'LIVE_PREMIUM'];

export interface LiveMediaDeps {
  repository: LiveRepository;
  sessions: LiveSessionsService;
  tokens: TokenSigner;
  clock: Clock;
  publicUrl: string;
  iceServers: string[];
  slotCount: number;
  limitsOf: (userId: string) => Promise<PlanLimits>;
  skusOf: (userId: string) => Promise<PlanSku[]>;
  startVersion: (
    actor: Actor,
    projectId: string,
    input: { name: string; fileName: string; size: number },
  ) => Promise<UploadTicket>;
}

const refused = (message: string = LIVE_MESSAGES.notPublisher) =>
  new AppError(403, LIVE_ERROR_CODES.badMediaToken, message);
const expired = () => new AppError(403, LIVE_ERROR_CODES.freeTierExpired, LIVE_MESSAGES.freeTierExpired);

/**
 * Media tokens and what they allow: minted for the host and admitted guests (publish only for the
 * host and co-hosts), bound to one room, user, mode and session; every WHIP/WHEP request checks the
 * token and then the room as it is now (a regenerated code, an expired free session, a disabled
 * co-host all refuse).
 */
export class LiveMediaService {
  constructor(private readonly deps: LiveMediaDeps) {}

  async mint(actor: Actor, code: string, mode: MediaMode): Promise<LiveMediaToken> {
    const found = await this.deps.sessions.find(actor, code);
    if (!found?.mine || found.session.status === 'ended') throw notStarted();
    const { session, mine } = found;
    if (session.status === 'expired') throw expired();
    const limits = await this.deps.limitsOf(session.hostId);
    if (mode === 'publish' && roleOf(mine, hostFacts(limits)) === 'guest')
      throw new AppError(403, LIVE_ERROR_CODES.notPublisher, LIVE_MESSAGES.notPublisher);
    const claims: MediaClaims = { c: session.code, u: actor.userId, m: mode, t: session.startTime.getTime() };
    return {
      token: this.deps.tokens.sign(TOKEN_PURPOSE, claims, TOKEN_TTL_SECONDS),
      mode,
      expiresAt: this.deps.clock.now().getTime() + TOKEN_TTL_SECONDS * 1000,
      url: `${this.deps.publicUrl}/api/live/${session.code}/${mode === 'publish' ? 'whip' : 'whep'}`,
      iceServers: this.deps.iceServers.map((urls) => ({ urls })),
      slotCount: this.deps.slotCount,
      bitrate: mine.bitrate,
      lossless: await this.lossless(session),
    };
  }

  /** Checks a WHIP/WHEP bearer against the room as it is now. */
  async authorize(bearer: string | null, code: string, mode: MediaMode): Promise<MediaGrant> {
    const claims = bearer ? this.deps.tokens.verify<MediaClaims>(TOKEN_PURPOSE, bearer) : null;
    if (!claims) throw new AppError(401, LIVE_ERROR_CODES.badMediaToken, 'A valid media token is required.');
    if (claims.c !== code || claims.m !== mode) throw refused('This media token is not for this room.');
    const session = await this.deps.repository.session(code);
    if (!session || session.startTime.getTime() !== claims.t || session.status === 'ended')
      throw refused(LIVE_MESSAGES.notStarted);
    if (session.status === 'expired') throw expired();
    const stream = await this.deps.repository.stream(code, claims.u);
    if (!stream) throw refused(LIVE_MESSAGES.notStarted);
    if (mode === 'publish' && !(await this.canPublish(session, claims.u))) throw refused();
    return { room: code, participant: claims.u, mode, bitrate: stream.bitrate, lossless: await this.lossless(session) };
  }

  /** Whether the participant may publish in the room now (host, or co-host on a plan with co-hosts). */
  async canPublish(session: LiveSessionRow, userId: string): Promise<boolean> {
    if (session.status !== 'active') return false;
    const stream = await this.deps.repository.stream(session.code, userId);
    if (!stream) return false;
    return roleOf(stream, hostFacts(await this.deps.limitsOf(session.hostId))) !== 'guest';
  }

  async mayPublishIn(room: string, userId: string): Promise<boolean> {
    const session = await this.deps.repository.session(room);
    return session ? this.canPublish(session, userId) : false;
  }

  /** "Save to project": the recording becomes a new version of a project the caller may edit. */
  async saveRecording(
    actor: Actor,
    code: string,
    input: { projectId: string; name: string; fileName: string; size: number },
  ): Promise<UploadTicket> {
    const found = await this.deps.sessions.find(actor, code);
    if (!found?.mine) throw notStarted();
    const own = await this.deps.limitsOf(actor.userId);
    if (!own.liveRecording)
      throw new AppError(403, LIVE_ERROR_CODES.recordingNotInPlan, LIVE_MESSAGES.recordingNotAvailable);
    return this.deps.startVersion(actor, input.projectId, {
      name: input.name,
      fileName: input.fileName,
      size: input.size,
    });
  }

  private async lossless(session: LiveSessionRow): Promise<boolean> {
    const skus = await this.deps.skusOf(session.hostId);
    return skus.some((sku) => LOSSLESS_SKUS.includes(sku));
  }
}
