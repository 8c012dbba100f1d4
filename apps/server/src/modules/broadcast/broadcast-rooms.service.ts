import { createHash, randomBytes } from 'node:crypto';
import type { BroadcastMediaToken, BroadcastRoom } from '@mixroom/contracts';
import {
  BROADCAST_ERROR_CODES,
  BROADCAST_MESSAGES,
  BROADCAST_SLOT_COUNT,
  LIVE_MESSAGES,
  publicLivePath,
  type BroadcastRoomRole,
  type LiveBitrate,
} from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { AccessChanges } from '../../access/access-changes';
import type { Clock, Timer } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { Actor } from '../../platform/identity/actor';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { broadcastAllowance, type BroadcastAllowance, type BroadcastFacts } from './broadcast-access';
import { BROADCAST_TOKEN_PURPOSE, MEDIA_TOKEN_TTL_SECONDS, type BroadcastClaims } from './broadcast-tokens';
import { publicState } from './broadcast.presenter';
import type { BroadcastRepository, BroadcastRoomRow } from './broadcast.repository';

/** A broadcast's default quality: studio listening, the Higher option. */
export const DEFAULT_BROADCAST_BITRATE: LiveBitrate = 320_000;

export interface BroadcastRoomsDeps {
  repository: BroadcastRepository;
  clock: Clock;
  bus: EventBus;
  accessChanges: AccessChanges;
  tokens: TokenSigner;
  publicUrl: string;
  iceServers: string[];
  factsOf: (userId: string) => Promise<BroadcastFacts>;
  newCode: () => string;
}

const notAllowed = () => new AppError(403, BROADCAST_ERROR_CODES.notAllowed, BROADCAST_MESSAGES.notAllowed);
const needsSubscription = () =>
  new AppError(403, BROADCAST_ERROR_CODES.needsSubscription, LIVE_MESSAGES.broadcastNeedsSubscription);
export const noSuchRoom = () => new AppError(404, BROADCAST_ERROR_CODES.noSuchRoom, BROADCAST_MESSAGES.noSuchRoom);

/** SHA-256 of a stream key: the key is 256 random bits, so no slow hash is needed to keep it safe. */
export const hashStreamKey = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * The broadcaster's side: its streaming room (codes created on first read), title, countdown and
 * quality, code and stream-key renewal, opening and ending a broadcast, and the browser's WHIP token.
 * Every call checks the broadcast right first (403 without it; 403 with the subscription text when
 * the right rests on a plan that needs a running subscription and going live is asked for).
 */
export class BroadcastRoomsService {
  /** One timer per room that tells listeners when its countdown is reached (they re-read the server's time). */
  private readonly countdowns = new Map<string, Timer>();

  constructor(private readonly deps: BroadcastRoomsDeps) {}

  /** Cancels the countdown timers (node shutdown). */
  stopTimers(): void {
    for (const timer of this.countdowns.values()) timer.cancel();
    this.countdowns.clear();
  }

  async allowance(userId: string): Promise<BroadcastAllowance> {
    return broadcastAllowance(await this.deps.factsOf(userId));
  }

  async room(actor: Actor): Promise<BroadcastRoom> {
    const allowance = await this.allowed(actor);
    return this.present(await this.ensure(actor.userId), allowance);
  }

  async settings(
    actor: Actor,
    input: { title?: string | undefined; countdownTime?: number | null | undefined; bitrate?: LiveBitrate | undefined },
  ): Promise<BroadcastRoom> {
    const allowance = await this.allowed(actor);
    const room = await this.ensure(actor.userId);
    const now = this.deps.clock.now();
    if (
      input.countdownTime != null &&
      input.countdownTime < now.getTime() &&
      input.countdownTime !== room.countdownTime
    )
      throw new AppError(400, BROADCAST_ERROR_CODES.countdownPast, BROADCAST_MESSAGES.countdownPast);
    const updated = await this.deps.repository.update(actor.userId, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.countdownTime !== undefined ? { countdownTime: input.countdownTime } : {}),
      ...(input.bitrate !== undefined ? { bitrate: input.bitrate } : {}),
      updatedAt: now,
    });
    await this.announce(room.viewerCode, 'settings', null);
    if (input.countdownTime !== undefined) this.armCountdown(actor.userId, input.countdownTime);
    return this.present(updated ?? room, allowance);
  }

  /**
   * At the countdown, listeners are told to read the view again: its server time moves their
   * countdown to LIVE STARTED even when their device's clock is off.
   */
  private armCountdown(userId: string, at: number | null): void {
    this.countdowns.get(userId)?.cancel();
    this.countdowns.delete(userId);
    if (at === null) return;
    const timer = this.deps.clock.setTimer(new Date(at), () => {
      this.countdowns.delete(userId);
      void this.deps.repository.ofUser(userId).then((room) => room && this.announce(room.viewerCode, 'settings', null));
    });
    this.countdowns.set(userId, timer);
  }

  /** A new code for the role. A new viewer code locks the old link out at once, listeners included. */
  async regenerate(actor: Actor, role: BroadcastRoomRole): Promise<BroadcastRoom> {
    const allowance = await this.allowed(actor);
    const before = await this.ensure(actor.userId);
    const code = this.deps.newCode();
    const updated = await this.deps.repository.update(actor.userId, {
      ...(role === 'broadcaster' ? { broadcasterCode: code } : { viewerCode: code }),
      updatedAt: this.deps.clock.now(),
    });
    if (role === 'viewer-realtime') {
      // Media nodes drop the old code's listeners; grant sockets re-check and lose the old topic.
      await this.announce(before.viewerCode, 'revoked', 0);
      await this.deps.accessChanges.forEveryone();
    }
    return this.present(updated ?? before, allowance);
  }

  /** A new stream key, returned this once; only its hash and last four characters are kept. */
  async newStreamKey(actor: Actor): Promise<{ streamKey: string; hint: string; whipUrl: string }> {
    await this.allowed(actor);
    const room = await this.ensure(actor.userId);
    const streamKey = `mxk_${randomBytes(32).toString('base64url')}`;
    const hint = streamKey.slice(-4);
    await this.deps.repository.update(actor.userId, {
      streamKeyHash: hashStreamKey(streamKey),
      streamKeyHint: hint,
      streamKeyCreatedAt: this.deps.clock.now(),
      updatedAt: this.deps.clock.now(),
    });
    return { streamKey, hint, whipUrl: this.whipUrl(room.broadcasterCode) };
  }

  /** START: the broadcaster opens its room; after an ended broadcast, listeners wait for the next. */
  async start(actor: Actor, code: string): Promise<BroadcastRoom> {
    const { room, allowance } = await this.ownRoom(actor, code);
    if (!allowance.ready) throw needsSubscription();
    if (room.status !== 'ended') return this.present(room, allowance);
    const updated = await this.deps.repository.update(actor.userId, {
      status: 'idle',
      updatedAt: this.deps.clock.now(),
    });
    await this.announce(room.viewerCode, 'settings', null);
    return this.present(updated ?? room, allowance);
  }

  /** The broadcaster ends the broadcast: listeners see it ended, media nodes drop the publisher. */
  async stop(actor: Actor, code: string): Promise<BroadcastRoom> {
    const { room, allowance } = await this.ownRoom(actor, code);
    const updated = await this.deps.repository.update(actor.userId, {
      status: 'ended',
      updatedAt: this.deps.clock.now(),
    });
    await this.announce(room.viewerCode, 'ended', null);
    return this.present(updated ?? room, allowance);
  }

  async mediaToken(actor: Actor, code: string): Promise<BroadcastMediaToken> {
    const { room, allowance } = await this.ownRoom(actor, code);
    if (!allowance.ready) throw needsSubscription();
    const claims: BroadcastClaims = { c: room.broadcasterCode, m: 'publish' };
    return {
      token: this.deps.tokens.sign(BROADCAST_TOKEN_PURPOSE, claims, MEDIA_TOKEN_TTL_SECONDS),
      url: this.whipUrl(room.broadcasterCode),
      iceServers: this.deps.iceServers.map((urls) => ({ urls })),
      slotCount: BROADCAST_SLOT_COUNT,
      bitrate: room.bitrate,
      expiresAt: this.deps.clock.now().getTime() + MEDIA_TOKEN_TTL_SECONDS * 1000,
    };
  }

  whipUrl = (broadcasterCode: string) => `${this.deps.publicUrl}/api/broadcast/${broadcasterCode}/whip`;
  whepUrl = (viewerCode: string) => `${this.deps.publicUrl}/api/broadcast/${viewerCode}/whep`;

  private async allowed(actor: Actor): Promise<BroadcastAllowance> {
    const allowance = await this.allowance(actor.userId);
    if (!allowance.allowed) throw notAllowed();
    return allowance;
  }

  /** The caller's room by its broadcaster code; someone else's code or an old one is no room. */
  private async ownRoom(actor: Actor, code: string) {
    const allowance = await this.allowed(actor);
    const room = await this.deps.repository.ofUser(actor.userId);
    if (!room || room.broadcasterCode !== code) throw noSuchRoom();
    return { room, allowance };
  }

  /** The user's room, made on first read (a clash of two random codes just draws again). */
  private async ensure(userId: string): Promise<BroadcastRoomRow> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await this.deps.repository.ofUser(userId);
      if (row) return row;
      try {
        await this.deps.repository.create({
          userId,
          broadcasterCode: this.deps.newCode(),
          viewerCode: this.deps.newCode(),
          bitrate: DEFAULT_BROADCAST_BITRATE,
          updatedAt: this.deps.clock.now(),
        });
      } catch {
        // A code another room holds (2^-50 odds) breaks a unique index: draw again.
      }
    }
    throw new Error('Could not create the streaming room.');
  }

  private announce(code: string, action: 'settings' | 'ended' | 'revoked', listeners: number | null) {
    return this.deps.bus.publishOrLog({
      topic: `broadcast:${code}`,
      type: 'broadcast.changed',
      data: { code, action, listeners },
    });
  }

  private present(room: BroadcastRoomRow, allowance: BroadcastAllowance): BroadcastRoom {
    return {
      roomCodes: [
        { role: 'broadcaster', code: room.broadcasterCode },
        { role: 'viewer-realtime', code: room.viewerCode },
      ],
      broadcasterCode: room.broadcasterCode,
      viewerCode: room.viewerCode,
      title: room.title,
      countdownTime: room.countdownTime,
      roomLink: `${this.deps.publicUrl}${publicLivePath(room.viewerCode)}`,
      whipUrl: this.whipUrl(room.broadcasterCode),
      whepUrl: this.whepUrl(room.viewerCode),
      streamKey:
        room.streamKeyHint && room.streamKeyCreatedAt
          ? { hint: room.streamKeyHint, createdAt: room.streamKeyCreatedAt.getTime() }
          : null,
      state: publicState(room.status),
      listeners: room.listeners,
      bitrate: room.bitrate,
      ready: allowance.ready,
      blockedMessage: allowance.ready ? null : LIVE_MESSAGES.broadcastNeedsSubscription,
      serverTime: this.deps.clock.now().getTime(),
    };
  }
}
