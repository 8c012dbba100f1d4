import {
  EVENT_TYPES,
  type AdminUser,
  type AdminUserDetail,
  type AdminUserList,
  type AuditEntry,
  type AuditPage,
  type CreditEntry,
  type CreditsResponse,
  type AdminPlanGrant,
} from '@mixroom/contracts';
import { isGrantActive, PLANS, type PlanSku } from '@mixroom/shared';
import { assertAdmin } from '../../access/admin.policy';
import type { AccessChanges } from '../../access/access-changes';
import type { Entitlements } from '../../access/entitlements';
import type { Tx, UnitOfWork } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { CreditsService } from '../credits';
import { presentGrant } from '../users';
import { presentAudit, presentUser } from './admin.presenter';
import type { AdminRepository, UserRow } from './admin.repository';

export const LAST_ADMIN = 'This is the last administrator of this server: make someone else an administrator first.';
export const NOT_YOURSELF = "You can't disable your own account.";

export interface AdminDeps {
  repository: AdminRepository;
  unitOfWork: UnitOfWork;
  clock: Clock;
  bus: EventBus;
  accessChanges: AccessChanges;
  entitlements: Entitlements;
  credits: CreditsService;
  /** Ends every session, grant and refresh token of an account at the identity provider, in `tx`. */
  endSessions: (tx: Tx, userId: string) => Promise<unknown>;
  /** What the live module keeps of a user (room codes, the current session's elapsed time); absent: nothing. */
  live?: AdminLiveFacts;
}

export interface AdminLiveFacts {
  roomCodes: (userId: string) => Promise<{ role: string; code: string }[]>;
  sessionElapsedMs: (userId: string) => Promise<number | null>;
}

type ListQuery = { search?: string | undefined; page: number; pageSize: number };
type AuditQuery = { actor?: string | undefined; target?: string | undefined; page: number; pageSize: number };

const LIVE_SKUS: PlanSku[] = ['LIVE_BASIC', 'LIVE_PREMIUM'];
const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/**
 * The operator's user management. Every method asks the admin policy first; every change is written
 * with its audit row in one transaction, re-checks inside it that the caller is still an enabled
 * administrator, and never leaves the server without one: changes that could remove an
 * administrator queue on one lock and count the enabled administrators under it.
 */
export class AdminService {
  constructor(private readonly deps: AdminDeps) {}

  async listUsers(actor: Actor | null, query: ListQuery): Promise<AdminUserList> {
    assertAdmin(actor);
    const [{ total, rows }, activeAdmins] = await Promise.all([
      this.deps.repository.list({
        search: query.search,
        offset: (query.page - 1) * query.pageSize,
        limit: query.pageSize,
      }),
      this.deps.repository.activeAdminCount(),
    ]);
    const grants = await this.deps.repository.grantsFor(rows.map((r) => r.id));
    const context = { now: this.deps.clock.now(), actorId: actor.userId, activeAdmins };
    return {
      total,
      page: query.page,
      pageSize: query.pageSize,
      users: rows.map((u) => presentUser(u, grants, context)),
    };
  }

  async userDetail(actor: Actor | null, userId: string): Promise<AdminUserDetail> {
    assertAdmin(actor);
    const user = await this.deps.repository.findUser(userId);
    if (!user) throw AppError.notFound('No such user.');
    const [entitlement, usage, roomCodes, elapsed] = await Promise.all([
      this.deps.entitlements.of(userId),
      this.deps.entitlements.summary(userId),
      this.deps.live?.roomCodes(userId) ?? [],
      this.deps.live?.sessionElapsedMs(userId) ?? null,
    ]);
    const trial = usage.trial && LIVE_SKUS.includes(usage.trial.sku) ? usage.trial : null;
    const shop = usage.subscriptions;
    return {
      user: await this.present(actor, user),
      privateData: {
        storeAccount: shop.length
          ? { subscriptions: shop.map((s) => ({ sku: s.shopSku, status: s.status, manageUrl: s.manageUrl })) }
          : null,
        liveRoom: roomCodes.length > 0 ? { roomCodes } : null,
        liveStreamingRoom: null,
        userExtraInfo: { canBroadcast: user.canBroadcast, isAdmin: user.isAdmin },
        liveTrial: trial
          ? { start: epochSeconds(trial.startsAt), end: trial.endsAt ? epochSeconds(trial.endsAt) : null }
          : null,
        liveRoomSession: elapsed === null ? null : { elapsed },
      },
      skus: entitlement.skus,
      limits: entitlement.limits,
      usage,
    };
  }

  async grantPlan(
    actor: Actor | null,
    userId: string,
    input: { sku: PlanSku; endsAt: string | null },
  ): Promise<AdminPlanGrant> {
    assertAdmin(actor);
    const now = this.deps.clock.now();
    if (input.sku === 'FREE') throw AppError.badRequest('Everyone has the Free plan: grant a paid plan.');
    if (input.endsAt && new Date(input.endsAt).getTime() <= now.getTime())
      throw AppError.badRequest('The end date must be in the future.');
    const grant = await this.deps.unitOfWork(async (tx) => {
      await this.assertStillAdmin(tx, actor);
      const user = await this.userIn(tx, userId);
      const before = await this.planNames(tx, userId, now);
      const row = await this.deps.repository.insertGrant(tx, {
        userId,
        sku: input.sku,
        startsAt: now,
        endsAt: input.endsAt ? new Date(input.endsAt) : null,
        grantedBy: actor.userId,
      });
      await this.audit(
        tx,
        actor,
        user,
        'plan.granted',
        { plans: before },
        {
          plans: [...new Set([...before.filter((p) => p !== PLANS.FREE.name), PLANS[input.sku].name])],
          granted: PLANS[input.sku].name,
          endsAt: input.endsAt,
        },
      );
      return row;
    });
    await this.changed(userId);
    return presentGrant(grant, now);
  }

  /** Ends a grant now; it stays in the user's history. Revoking an ended grant changes nothing. */
  async revokePlan(actor: Actor | null, userId: string, grantId: string): Promise<void> {
    assertAdmin(actor);
    const now = this.deps.clock.now();
    const changed = await this.deps.unitOfWork(async (tx) => {
      await this.assertStillAdmin(tx, actor);
      const user = await this.userIn(tx, userId);
      const grant = await this.deps.repository.findGrant(tx, userId, grantId);
      if (!grant) throw AppError.notFound('No such plan grant.');
      if (!isGrantActive(grant, now)) return false;
      const before = await this.planNames(tx, userId, now);
      await this.deps.repository.endGrant(tx, grantId, now);
      const name = PLANS[grant.sku as PlanSku]?.name ?? grant.sku;
      await this.audit(
        tx,
        actor,
        user,
        'plan.revoked',
        { plans: before, endsAt: grant.endsAt?.toISOString() ?? null },
        { plans: before.filter((p) => p !== name), revoked: name, endsAt: now.toISOString() },
      );
      return true;
    });
    if (changed) await this.changed(userId);
  }

  async setFlags(
    actor: Actor | null,
    userId: string,
    input: { isAdmin?: boolean | undefined; canBroadcast?: boolean | undefined },
  ): Promise<AdminUser> {
    assertAdmin(actor);
    const now = this.deps.clock.now();
    const result = await this.deps.unitOfWork(async (tx) => {
      if (input.isAdmin === false) await this.deps.repository.lockAdminSet(tx);
      await this.assertStillAdmin(tx, actor);
      const user = await this.userIn(tx, userId);
      const next = { isAdmin: input.isAdmin ?? user.isAdmin, canBroadcast: input.canBroadcast ?? user.canBroadcast };
      if (next.isAdmin === user.isAdmin && next.canBroadcast === user.canBroadcast) return { user, changed: false };
      if (next.isAdmin && !user.isAdmin && user.disabledAt)
        throw AppError.conflict('Enable this account before making it an administrator.', 'ACCOUNT_DISABLED');
      if (!next.isAdmin && user.isAdmin) await this.assertNotLastAdmin(tx, user);
      const updated = await this.deps.repository.updateUser(tx, userId, next, now);
      await this.audit(
        tx,
        actor,
        user,
        'flags.changed',
        { isAdmin: user.isAdmin, canBroadcast: user.canBroadcast },
        { isAdmin: updated.isAdmin, canBroadcast: updated.canBroadcast },
      );
      return { user: updated, changed: true };
    });
    if (result.changed) {
      // A former administrator's sockets lose the admin topic before anything else reaches them.
      if (input.isAdmin !== undefined) await this.deps.accessChanges.forUsers([userId]);
      await this.changed(userId);
    }
    return this.present(actor, result.user);
  }

  /**
   * Disabling ends every session at once: the account's grants and refresh tokens go in the same
   * transaction as the flag, its access tokens are refused from the next request on, and its open
   * sockets are re-checked (and closed) by every node's realtime hub.
   */
  async setStatus(actor: Actor | null, userId: string, input: { disabled: boolean }): Promise<AdminUser> {
    assertAdmin(actor);
    if (input.disabled && userId === actor.userId) throw AppError.conflict(NOT_YOURSELF, 'NOT_YOURSELF');
    const now = this.deps.clock.now();
    const result = await this.deps.unitOfWork(async (tx) => {
      if (input.disabled) await this.deps.repository.lockAdminSet(tx);
      await this.assertStillAdmin(tx, actor);
      const user = await this.userIn(tx, userId);
      if (Boolean(user.disabledAt) === input.disabled) return { user, changed: false };
      if (input.disabled && user.isAdmin) await this.assertNotLastAdmin(tx, user);
      const updated = await this.deps.repository.updateUser(
        tx,
        userId,
        { disabledAt: input.disabled ? now : null },
        now,
      );
      if (input.disabled) await this.deps.endSessions(tx, userId);
      await this.audit(
        tx,
        actor,
        user,
        input.disabled ? 'account.disabled' : 'account.enabled',
        { disabled: Boolean(user.disabledAt) },
        { disabled: input.disabled },
      );
      return { user: updated, changed: true };
    });
    if (result.changed) {
      if (input.disabled) await this.deps.accessChanges.forUsers([userId]);
      await this.changed(userId);
    }
    return this.present(actor, result.user);
  }

  userCredits(
    actor: Actor | null,
    userId: string,
    page: { before?: number | undefined; limit: number },
  ): Promise<CreditsResponse> {
    return this.deps.credits.ofUser(actor, userId, page);
  }

  /** Through the ledger's adjustment; the audit row lands in the ledger entry's transaction. */
  async adjustCredits(
    actor: Actor | null,
    userId: string,
    input: { amount: number; reason: string },
  ): Promise<CreditEntry> {
    assertAdmin(actor);
    const user = await this.deps.repository.findUser(userId);
    if (!user) throw AppError.notFound('No such user.');
    const entry = await this.deps.credits.adjust(actor, userId, input, async (tx, change) => {
      await this.assertStillAdmin(tx, actor);
      await this.audit(
        tx,
        actor,
        user,
        'credits.adjusted',
        { balance: change.before },
        { balance: change.after, amount: input.amount, reason: input.reason },
      );
    });
    await this.deps.bus.publish({ topic: 'admin', type: EVENT_TYPES.userUpdated, data: { userId } });
    return entry;
  }

  async auditLog(actor: Actor | null, query: AuditQuery): Promise<AuditPage> {
    assertAdmin(actor);
    const { total, rows } = await this.deps.repository.auditPage({
      actor: query.actor,
      target: query.target,
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { total, page: query.page, pageSize: query.pageSize, entries: rows.map(presentAudit) };
  }

  private async present(actor: Actor, user: UserRow): Promise<AdminUser> {
    const [grants, activeAdmins] = await Promise.all([
      this.deps.repository.grantsFor([user.id]),
      this.deps.repository.activeAdminCount(),
    ]);
    return presentUser(user, grants, { now: this.deps.clock.now(), actorId: actor.userId, activeAdmins });
  }

  private async userIn(tx: Tx, userId: string): Promise<UserRow> {
    const user = await this.deps.repository.findUser(userId, tx);
    if (!user) throw AppError.notFound('No such user.');
    return user;
  }

  /** The caller was an administrator when the request began; a change made since then counts. */
  private async assertStillAdmin(tx: Tx, actor: Actor): Promise<void> {
    const self = await this.deps.repository.findUser(actor.userId, tx);
    if (!self?.isAdmin || self.disabledAt) throw AppError.forbidden();
  }

  /** Called under the admin-set lock, so two removals at once can't both see another administrator. */
  private async assertNotLastAdmin(tx: Tx, user: UserRow): Promise<void> {
    if (!user.isAdmin || user.disabledAt) return;
    if ((await this.deps.repository.activeAdminCount(tx)) <= 1) throw AppError.conflict(LAST_ADMIN, 'LAST_ADMIN');
  }

  private async planNames(tx: Tx, userId: string, now: Date): Promise<string[]> {
    const grants = await this.deps.repository.grantsFor([userId], tx);
    const skus = grants.filter((g) => isGrantActive(g, now)).map((g) => g.sku as PlanSku);
    return skus.length ? [...new Set(skus.map((sku) => PLANS[sku]?.name ?? sku))] : [PLANS.FREE.name];
  }

  private audit(
    tx: Tx,
    actor: Actor,
    target: UserRow,
    action: AuditEntry['action'],
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ): Promise<void> {
    return this.deps.repository.insertAudit(tx, {
      at: this.deps.clock.now(),
      actorId: actor.userId,
      actorLabel: actor.email,
      targetUserId: target.id,
      targetLabel: target.email,
      action,
      before,
      after,
    });
  }

  /** The user's open tabs and every administrator's screens refresh what they show of the account. */
  private async changed(userId: string): Promise<void> {
    await this.deps.bus.publish({ topic: `user:${userId}`, type: EVENT_TYPES.userUpdated, data: { userId } });
    await this.deps.bus.publish({ topic: 'admin', type: EVENT_TYPES.userUpdated, data: { userId } });
  }
}
