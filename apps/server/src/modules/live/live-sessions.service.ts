import type { EventData, LiveSession } from '@mixroom/contracts';
import {
  DEFAULT_LIVE_BITRATE,
  LIVE_ELAPSED_STEP_MS,
  LIVE_ERROR_CODES,
  LIVE_MESSAGES,
  UNLIMITED,
  creditPeriod,
  LIVE_TRIAL_MAX_MINUTES,
  LIVE_TRIAL_MONTHS,
  type PlanLimits,
  type PlanSku,
} from '@mixroom/shared';
import type { AccessChanges } from '../../access/access-changes';
import type { UnitOfWork } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { EventBus } from '../../platform/realtime/event-bus';
import {
  limiterKey,
  RateLimitedError,
  type AttemptLimiter,
  type LimitRule,
} from '../../platform/security/attempt-limiter';
import { liveUrlTemplate, notStarted } from './live-codes';
import type { LiveRoomsService } from './live-rooms.service';
import type { LiveTimers } from './live-timers';
import { presentSession, roleOf, type HostFacts, type UserCard } from './live.presenter';
import type { LiveRepository, LiveSessionRow, LiveStreamRow } from './live.repository';

const MINUTE = 60_000;
/** Only the two Live plans have a trial, and a trial counts the minutes its sessions broadcast. */
const LIVE_TRIAL_SKUS: readonly PlanSku[] = ['LIVE_BASIC', 'LIVE_PREMIUM'];

/** Wrong or dead codes a user, and an address, may try before joins are refused for a while. */
export const LIVE_JOIN_RULES = {
  user: { name: 'live-join:user', allowance: 10, windowMs: 10 * MINUTE, baseBlockMs: MINUTE, maxBlockMs: 15 * MINUTE },
  address: {
    name: 'live-join:address',
    allowance: 30,
    windowMs: 10 * MINUTE,
    baseBlockMs: MINUTE,
    maxBlockMs: 60 * MINUTE,
  },
} satisfies Record<string, LimitRule>;

export interface LiveSessionsDeps {
  repository: LiveRepository;
  unitOfWork: UnitOfWork;
  clock: Clock;
  bus: EventBus;
  accessChanges: AccessChanges;
  limiter: AttemptLimiter;
  rooms: LiveRoomsService;
  timers: LiveTimers;
  publicUrl: string;
  limitsOf: (userId: string) => Promise<PlanLimits>;
  cardsOf: (userIds: string[]) => Promise<UserCard[]>;
  trialOf: (userId: string) => Promise<{ sku: PlanSku; startsAt: Date } | null>;
}

/** A session found by a code, with the caller's own stream in it (null when not admitted). */
export interface SessionView {
  session: LiveSessionRow;
  mine: LiveStreamRow | null;
}

export const hostFacts = (limits: PlanLimits): HostFacts => ({
  guestLimit: limits.liveGuests,
  coHostAllowed: limits.liveCoHost,
  recordingAllowed: limits.liveRecording,
});

/**
 * Live sessions: the host starts one under its guest code, guests join it (within the host's plan's
 * guest limit), the host enables co-hosts (plans with bi-directional audio), participants leave.
 * The same user's newer tab takes over; the older one is told (`takeover`) and cleans up.
 */
export class LiveSessionsService {
  constructor(private readonly deps: LiveSessionsDeps) {}

  /** The session a code leads the caller to: a host code only for its owner, a guest code for anyone. */
  async find(actor: Actor, code: string): Promise<SessionView | null> {
    const owner = await this.deps.repository.findCode(code);
    if (!owner || (owner.role === 'host' && owner.userId !== actor.userId)) return null;
    const sessionCode = owner.role === 'guest' ? code : (await this.deps.rooms.codes(owner.userId)).guest;
    const session = await this.deps.repository.session(sessionCode);
    if (!session) return null;
    return { session, mine: await this.deps.repository.stream(session.code, actor.userId) };
  }

  async start(actor: Actor, code: string, instanceId: string): Promise<LiveSession> {
    const owner = await this.deps.repository.findCode(code);
    if (!owner || owner.userId !== actor.userId || owner.role !== 'host') throw notStarted();
    return this.open(actor, instanceId);
  }

  /** Creates the host's session (or re-enters a running one) under its guest code. */
  private async open(actor: Actor, instanceId: string): Promise<LiveSession> {
    const codes = await this.deps.rooms.codes(actor.userId);
    const limits = await this.deps.limitsOf(actor.userId);
    const now = this.deps.clock.now();
    const maxDurationMs = await this.sessionLimit(actor.userId, limits, now);
    const { session, takeover } = await this.deps.unitOfWork(async (tx) => {
      const existing = await this.deps.repository.lockSession(tx, codes.guest);
      if (existing?.status === 'active') {
        const host = await this.deps.repository.stream(codes.guest, actor.userId, tx);
        await this.deps.repository.putStream(tx, this.hostStream(codes.guest, actor, instanceId, host, now));
        return { session: existing, takeover: Boolean(host?.isOnline && host.instanceId !== instanceId) };
      }
      const fresh = {
        code: codes.guest,
        hostId: actor.userId,
        hostCode: codes.host,
        liveUrl: liveUrlTemplate(this.deps.publicUrl),
        status: 'active' as const,
        countdownTime: existing?.countdownTime ?? null,
        bitrate: existing?.bitrate ?? DEFAULT_LIVE_BITRATE,
        maxDurationMs,
        elapsedMs: 0,
        tickDueAt: new Date(now.getTime() + LIVE_ELAPSED_STEP_MS),
        startTime: now,
        lastUpdate: now,
      };
      await this.deps.repository.putSession(tx, fresh);
      await this.deps.repository.clearStreams(tx, codes.guest);
      await this.deps.repository.putStream(tx, this.hostStream(codes.guest, actor, instanceId, null, now));
      return { session: fresh, takeover: false };
    });
    this.deps.timers.arm(session);
    await this.announce(session.code, takeover ? 'takeover' : 'started', actor.userId, instanceId);
    return this.view(actor, session.code);
  }

  /**
   * How long a new session may run: the plan's limit (Free: 30 minutes), and during a Live-plan trial
   * (three months from its start) what is left of its 1000 broadcast minutes.
   */
  private async sessionLimit(userId: string, limits: PlanLimits, now: Date): Promise<number | null> {
    const planLimit = limits.liveMaxDurationMs === UNLIMITED ? null : limits.liveMaxDurationMs;
    const trial = await this.deps.trialOf(userId);
    if (!trial || !LIVE_TRIAL_SKUS.includes(trial.sku)) return planLimit;
    const trialEnd = new Date(trial.startsAt);
    trialEnd.setUTCMonth(trialEnd.getUTCMonth() + LIVE_TRIAL_MONTHS);
    if (now >= trialEnd) return planLimit;
    const used = await this.deps.repository.usageSince(userId, creditPeriod(trial.startsAt));
    const left = LIVE_TRIAL_MAX_MINUTES * MINUTE - used;
    if (left <= 0) throw new AppError(403, LIVE_ERROR_CODES.trialTimeUsed, LIVE_MESSAGES.trialTimeUsed);
    return planLimit === null ? left : Math.min(planLimit, left);
  }

  private hostStream(code: string, actor: Actor, instanceId: string, before: LiveStreamRow | null, now: Date) {
    return {
      code,
      userId: actor.userId,
      isEnabled: true,
      isHost: true,
      isOnline: true,
      instanceId,
      source: before?.source ?? null,
      bitrate: before?.bitrate ?? DEFAULT_LIVE_BITRATE,
      updatedAt: now,
    };
  }

  /** A guest joins by the guest code; wrong and dead codes count against the user and the address. */
  async join(actor: Actor, code: string, instanceId: string, address: string): Promise<LiveSession> {
    const keys = [limiterKey(LIVE_JOIN_RULES.user, actor.userId), limiterKey(LIVE_JOIN_RULES.address, address)];
    try {
      await this.deps.limiter.assertAllowed(keys, LIVE_MESSAGES.tooManyAttempts);
    } catch (error) {
      if (error instanceof RateLimitedError)
        throw new AppError(429, LIVE_ERROR_CODES.tooManyAttempts, LIVE_MESSAGES.tooManyAttempts);
      throw error;
    }
    const owner = await this.deps.repository.findCode(code);
    const session = owner?.role === 'guest' ? await this.deps.repository.session(code) : null;
    if (!owner || !session || session.status !== 'active') {
      await this.deps.limiter.recordFailure(LIVE_JOIN_RULES.user, keys[0]!);
      await this.deps.limiter.recordFailure(LIVE_JOIN_RULES.address, keys[1]!);
      throw notStarted();
    }
    if (owner.userId === actor.userId) return this.open(actor, instanceId);
    const limits = await this.deps.limitsOf(session.hostId);
    const now = this.deps.clock.now();
    const takeover = await this.deps.unitOfWork(async (tx) => {
      const locked = await this.deps.repository.lockSession(tx, code);
      if (!locked || locked.status !== 'active') throw notStarted();
      const streams = await this.deps.repository.streams(code, tx);
      const mine = streams.find((s) => s.userId === actor.userId);
      if (mine) {
        await this.deps.repository.updateStream(tx, code, actor.userId, { instanceId, isOnline: true, updatedAt: now });
        return mine.isOnline && mine.instanceId !== instanceId;
      }
      const guests = streams.filter((s) => !s.isHost).length;
      if (limits.liveGuests !== UNLIMITED && guests >= limits.liveGuests)
        throw new AppError(409, LIVE_ERROR_CODES.roomFull, LIVE_MESSAGES.roomFull);
      await this.deps.repository.putStream(tx, {
        code,
        userId: actor.userId,
        isEnabled: false,
        isHost: false,
        isOnline: true,
        instanceId,
        source: null,
        bitrate: DEFAULT_LIVE_BITRATE,
        updatedAt: now,
      });
      return false;
    });
    await this.announce(code, takeover ? 'takeover' : 'joined', actor.userId, instanceId);
    return this.view(actor, code);
  }

  /** The session as the caller sees it: the host or an admitted guest; anyone else gets "not started". */
  async get(actor: Actor, code: string): Promise<LiveSession> {
    const found = await this.find(actor, code);
    if (!found?.mine) throw notStarted();
    return this.view(actor, found.session.code);
  }

  async view(actor: Actor, sessionCode: string): Promise<LiveSession> {
    const session = await this.deps.repository.session(sessionCode);
    const streams = await this.deps.repository.streams(sessionCode);
    const viewer = streams.find((s) => s.userId === actor.userId);
    if (!session || !viewer) throw notStarted();
    const [limits, cards] = await Promise.all([
      this.deps.limitsOf(session.hostId),
      this.deps.cardsOf(streams.map((s) => s.userId)),
    ]);
    return presentSession({ session, streams, cards, host: hostFacts(limits), viewer, now: this.deps.clock.now() });
  }

  /**
   * Leaving: a guest's stream is removed (and its topic re-checked away); the host leaving ends the
   * session and its publishing. An older tab leaving after a newer one took over changes nothing.
   */
  async leave(actor: Actor, code: string, instanceId: string): Promise<void> {
    const found = await this.find(actor, code);
    const mine = found?.mine;
    if (!found || !mine || mine.instanceId !== instanceId) return;
    const sessionCode = found.session.code;
    if (mine.isHost) {
      await this.end(sessionCode, 'ended');
      return;
    }
    await this.deps.repository.deleteStream(undefined, sessionCode, actor.userId);
    await this.announce(sessionCode, 'left', actor.userId, instanceId);
    await this.deps.accessChanges.forUsers([actor.userId]);
  }

  /** The participant's last socket left the room and stayed away: the host's session ends, a guest goes offline. */
  async away(sessionCode: string, userId: string): Promise<void> {
    const session = await this.deps.repository.session(sessionCode);
    const stream = session?.status === 'active' ? await this.deps.repository.stream(sessionCode, userId) : null;
    if (!session || !stream?.isOnline) return;
    if (stream.isHost) return this.end(sessionCode, 'ended');
    await this.deps.repository.updateStream(undefined, sessionCode, userId, {
      isOnline: false,
      updatedAt: this.deps.clock.now(),
    });
    await this.announce(sessionCode, 'left', userId, stream.instanceId);
  }

  /** Ends a running session: the host offline, timers stopped, everyone told (the media side closes the room). */
  async end(sessionCode: string, action: 'ended' | 'expired'): Promise<void> {
    const now = this.deps.clock.now();
    const row = await this.deps.repository.finish(sessionCode, action, now);
    this.deps.timers.cancel(sessionCode);
    if (!row) return;
    await this.deps.repository.updateStream(undefined, sessionCode, row.hostId, { isOnline: false, updatedAt: now });
    await this.announce(sessionCode, action, row.hostId, null);
  }

  /** The guest code was regenerated: the session under the old code goes, and its guests lose the room at once. */
  async guestCodeReplaced(oldCode: string): Promise<void> {
    const session = await this.deps.repository.session(oldCode);
    if (!session) return;
    const streams = await this.deps.repository.streams(oldCode);
    await this.deps.unitOfWork((tx) => this.deps.repository.deleteSession(tx, oldCode));
    this.deps.timers.cancel(oldCode);
    await this.announce(oldCode, 'ended', session.hostId, null);
    await this.deps.accessChanges.forUsers(streams.map((s) => s.userId));
  }

  /** The host enables or disables a guest as co-host, where the host's plan has bi-directional audio. */
  async setCoHost(actor: Actor, code: string, userId: string, enabled: boolean): Promise<LiveSession> {
    const found = await this.find(actor, code);
    if (!found?.mine) throw notStarted();
    if (!found.mine.isHost) throw new AppError(403, LIVE_ERROR_CODES.notHost, LIVE_MESSAGES.notHost);
    const limits = await this.deps.limitsOf(found.session.hostId);
    if (!limits.liveCoHost) throw new AppError(403, LIVE_ERROR_CODES.coHostNotInPlan, LIVE_MESSAGES.coHostNotInPlan);
    const target = await this.deps.repository.stream(found.session.code, userId);
    if (!target || target.isHost) throw AppError.notFound();
    await this.deps.repository.updateStream(undefined, found.session.code, userId, {
      isEnabled: enabled,
      // A co-host turned off keeps no source selected: it may not publish until enabled again.
      ...(enabled ? {} : { source: null }),
      updatedAt: this.deps.clock.now(),
    });
    await this.announce(found.session.code, 'cohost', userId, null);
    return this.view(actor, found.session.code);
  }

  /** Quality and source of the caller's own stream: the host's or a co-host's. */
  async settings(
    actor: Actor,
    code: string,
    input: { bitrate?: number | undefined; source?: 0 | 1 | null | undefined },
  ): Promise<LiveSession> {
    const found = await this.find(actor, code);
    if (!found?.mine || found.session.status !== 'active') throw notStarted();
    const limits = await this.deps.limitsOf(found.session.hostId);
    if (roleOf(found.mine, hostFacts(limits)) === 'guest')
      throw new AppError(403, LIVE_ERROR_CODES.notPublisher, LIVE_MESSAGES.viewerBitrate);
    const now = this.deps.clock.now();
    await this.deps.repository.updateStream(undefined, found.session.code, actor.userId, {
      ...(input.bitrate !== undefined ? { bitrate: input.bitrate } : {}),
      ...(input.source !== undefined ? { source: input.source } : {}),
      updatedAt: now,
    });
    if (found.mine.isHost && input.bitrate !== undefined)
      await this.deps.repository.updateSession(found.session.code, { bitrate: input.bitrate, lastUpdate: now });
    await this.announce(found.session.code, 'settings', actor.userId, null);
    return this.view(actor, found.session.code);
  }

  /** Re-arms the timers of running sessions when a node starts. */
  async resume(): Promise<void> {
    for (const session of await this.deps.repository.activeSessions()) this.deps.timers.arm(session);
  }

  announce(
    code: string,
    action: EventData<'live.changed'>['action'],
    userId: string | null,
    instanceId: string | null,
  ): Promise<void> {
    return this.deps.bus.publishOrLog({
      topic: `live:${code}`,
      type: 'live.changed',
      data: { code, action, userId, instanceId, remainingMs: null },
    });
  }
}
