import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PublicBroadcast, PublicBroadcastAccess } from '@mixroom/contracts';
import { BROADCAST_ERROR_CODES, BROADCAST_MESSAGES, BROADCAST_SLOT_COUNT, LIVE_MESSAGES } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { PublicGrants } from '../../platform/realtime/public-grants';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { limiterKey, type AttemptLimiter, type LimitRule } from '../../platform/security/attempt-limiter';
import type { BroadcastAllowance } from './broadcast-access';
import { hashStreamKey, noSuchRoom, type BroadcastRoomsService } from './broadcast-rooms.service';
import {
  BROADCAST_TOKEN_PURPOSE,
  broadcastRoomId,
  MEDIA_TOKEN_TTL_SECONDS,
  type BroadcastClaims,
} from './broadcast-tokens';
import { presentPublic } from './broadcast.presenter';
import type { BroadcastRepository, BroadcastRoomRow } from './broadcast.repository';

/**
 * Wrong viewer codes per address: a code has 50 random bits, and this keeps guessing at a few
 * hundred tries an hour per address.
 */
export const BROADCAST_CODE_RULE = {
  name: 'broadcast:code-address',
  allowance: 20,
  windowMs: 10 * 60_000,
  baseBlockMs: 60_000,
  maxBlockMs: 60 * 60_000,
} satisfies LimitRule;

/** What a checked WHIP/WHEP request may do on the SFU. */
export interface BroadcastMediaGrant {
  /** The SFU room (one per broadcaster). */
  room: string;
  /** The code the request came with (a replaced viewer code drops the listeners it admitted). */
  code: string;
  ownerId: string;
  mode: 'publish' | 'subscribe';
  bitrate: number;
}

export interface BroadcastPublicDeps {
  repository: BroadcastRepository;
  rooms: BroadcastRoomsService;
  clock: Clock;
  tokens: TokenSigner;
  grants: PublicGrants;
  limiter: AttemptLimiter;
  iceServers: string[];
  cardOf: (userId: string) => Promise<{ displayName: string; photoUrl: string | null } | null>;
}

const badKey = () => new AppError(401, BROADCAST_ERROR_CODES.badStreamKey, BROADCAST_MESSAGES.badStreamKey);

/**
 * What needs no account: a broadcast's public view and a listener's way in (a WHEP token and a
 * realtime grant) with the viewer code only, rate-limited per address on wrong codes; and the
 * checks of every WHIP/WHEP request against the room as it is now.
 */
export class BroadcastPublicService {
  constructor(private readonly deps: BroadcastPublicDeps) {}

  async view(code: string, address: string): Promise<PublicBroadcast> {
    const room = await this.viewerRoom(code, address);
    return presentPublic(room, await this.hostOf(room), this.deps.clock.now());
  }

  async access(code: string, address: string): Promise<PublicBroadcastAccess> {
    const room = await this.viewerRoom(code, address);
    const claims: BroadcastClaims = { c: room.viewerCode, m: 'subscribe' };
    const now = this.deps.clock.now();
    return {
      broadcast: presentPublic(room, await this.hostOf(room), now),
      media: {
        token: this.deps.tokens.sign(BROADCAST_TOKEN_PURPOSE, claims, MEDIA_TOKEN_TTL_SECONDS),
        url: this.deps.rooms.whepUrl(room.viewerCode),
        iceServers: this.deps.iceServers.map((urls) => ({ urls })),
        slotCount: BROADCAST_SLOT_COUNT,
        bitrate: room.bitrate,
        expiresAt: now.getTime() + MEDIA_TOKEN_TTL_SECONDS * 1000,
      },
      realtime: this.deps.grants.issue(`broadcast:${room.viewerCode}`),
    };
  }

  /**
   * WHIP: the bearer is the broadcaster's browser token or the room's stream key (401 otherwise);
   * the broadcast right is checked as it is now.
   */
  async authorizePublish(bearer: string | null, code: string): Promise<BroadcastMediaGrant> {
    if (!bearer) throw badKey();
    const room = await this.deps.repository.byBroadcasterCode(code);
    const claims = this.claims(bearer);
    const byToken = claims?.m === 'publish' && claims.c === code;
    if (!room || !(byToken || this.keyMatches(room, bearer))) throw badKey();
    const allowance: BroadcastAllowance = await this.deps.rooms.allowance(room.userId);
    if (!allowance.allowed) throw new AppError(403, BROADCAST_ERROR_CODES.notAllowed, BROADCAST_MESSAGES.notAllowed);
    if (!allowance.ready)
      throw new AppError(403, BROADCAST_ERROR_CODES.needsSubscription, LIVE_MESSAGES.broadcastNeedsSubscription);
    return { room: broadcastRoomId(room.userId), code, ownerId: room.userId, mode: 'publish', bitrate: room.bitrate };
  }

  /** WHEP: the viewer code is the key; a bearer, when sent, must be a listening token for that code. */
  async authorizeListen(bearer: string | null, code: string, address: string): Promise<BroadcastMediaGrant> {
    if (bearer) {
      const claims = this.claims(bearer);
      if (claims?.m !== 'subscribe' || claims.c !== code)
        throw new AppError(401, BROADCAST_ERROR_CODES.badStreamKey, 'This media token is not for this broadcast.');
    }
    const room = await this.viewerRoom(code, address);
    return { room: broadcastRoomId(room.userId), code, ownerId: room.userId, mode: 'subscribe', bitrate: room.bitrate };
  }

  /** PATCH and DELETE: the resource's own code must still lead to the room. */
  async stillValid(code: string, mode: 'publish' | 'subscribe'): Promise<BroadcastRoomRow | null> {
    return mode === 'publish' ? this.deps.repository.byBroadcasterCode(code) : this.deps.repository.byViewerCode(code);
  }

  /** A listener's participant name on the SFU: anonymous and unique. */
  listenerId(): string {
    return `listener-${randomBytes(9).toString('base64url')}`;
  }

  private async viewerRoom(code: string, address: string): Promise<BroadcastRoomRow> {
    const key = limiterKey(BROADCAST_CODE_RULE, address);
    await this.deps.limiter.assertAllowed([key], LIVE_MESSAGES.tooManyAttempts);
    const room = await this.deps.repository.byViewerCode(code);
    if (room) return room;
    await this.deps.limiter.recordFailure(BROADCAST_CODE_RULE, key);
    throw noSuchRoom();
  }

  private async hostOf(room: BroadcastRoomRow) {
    return (await this.deps.cardOf(room.userId)) ?? { displayName: 'Mixroom', photoUrl: null };
  }

  private claims(bearer: string): BroadcastClaims | null {
    try {
      return this.deps.tokens.verify<BroadcastClaims>(BROADCAST_TOKEN_PURPOSE, bearer);
    } catch {
      return null;
    }
  }

  private keyMatches(room: BroadcastRoomRow, bearer: string): boolean {
    if (!room.streamKeyHash) return false;
    const given = Buffer.from(hashStreamKey(bearer));
    const kept = Buffer.from(room.streamKeyHash);
    return given.length === kept.length && timingSafeEqual(given, kept);
  }
}
