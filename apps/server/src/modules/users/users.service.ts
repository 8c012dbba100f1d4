import { isGrantActive, MESSAGES, mergePlans, type PlanSku } from '@mixroom/shared';
import type { EntitlementsSummary, Me, NotificationPreferences } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { VerifiedToken } from '../../platform/identity/token-verifier';
import type { Actor } from '../../platform/identity/actor';
import { presentGrant } from './plan-grant.presenter';
import type { PlanGrantRow, UserRow, UsersRepository } from './users.repository';

export type { Actor } from '../../platform/identity/actor';
import type { IdentityPort } from '../../platform/identity/identity-port';

export interface UsersServiceDeps {
  users: UsersRepository;
  identity: { mode: 'embedded' | 'external'; issuer: string };
  /** What `/api/me` tells beside the user row (the account module's and entitlements' parts). */
  account: {
    /** `known`: the user's flags and plan grants, read a moment ago by `me`. */
    summary(
      userId: string,
      known: { flags: { isAdmin: boolean; canBroadcast: boolean }; grants: PlanGrantRow[] },
    ): Promise<EntitlementsSummary>;
    /** The address change waiting for confirmation and the notification choices (one read). */
    pendingEmailAndPreferences(
      userId: string,
    ): Promise<{ pendingEmail: string | null; preferences: NotificationPreferences }>;
  };
  clock: Clock;
}

export class UsersService implements IdentityPort {
  constructor(private readonly deps: UsersServiceDeps) {}

  /**
   * Embedded tokens carry our user id as `sub`. Tokens of an external issuer are matched on
   * (issuer, sub), and a first visit creates the account from the token's claims.
   */
  async resolveActor(token: VerifiedToken): Promise<Actor> {
    const user =
      this.deps.identity.mode === 'embedded'
        ? await this.deps.users.findById(token.subject)
        : await this.findOrProvision(token);
    // An account being deleted is signed out at once, whatever its tokens still say.
    if (!user || user.deletionRequestedAt) throw new AppError(401, 'INVALID_TOKEN', 'This account no longer exists.');
    // A disabled account's tokens stop working at once, not when they expire.
    if (user.disabledAt) throw new AppError(401, 'ACCOUNT_DISABLED', MESSAGES.accountDisabled);
    return { userId: user.id, isAdmin: user.isAdmin, email: user.email, displayName: user.displayName };
  }

  private async findOrProvision(token: VerifiedToken): Promise<UserRow> {
    const existing = await this.deps.users.findByExternalSubject(this.deps.identity.issuer, token.subject);
    if (existing) return existing;
    const email = token.claims.email ?? `${token.subject}@users.${new URL(this.deps.identity.issuer).hostname}`;
    return this.deps.users.create({
      email,
      displayName: token.claims.name ?? email.split('@')[0] ?? 'User',
      provider: this.deps.identity.issuer,
      externalSubject: token.subject,
    });
  }

  /** The account behind a stored id (a signed link's claim), as it is now; null when gone. */
  async actorById(userId: string): Promise<Actor | null> {
    const user = await this.deps.users.findById(userId);
    return user && !user.deletionRequestedAt
      ? { userId: user.id, isAdmin: user.isAdmin, email: user.email, displayName: user.displayName }
      : null;
  }

  async photoUrlOf(userId: string): Promise<string | null> {
    return (await this.findMany([userId]))[0]?.photoUrl ?? null;
  }

  /** Names and photos of users, for presenting items and comments. */
  async findMany(ids: string[]): Promise<{ id: string; displayName: string; photoUrl: string | null }[]> {
    return (await this.deps.users.findMany(ids)).map((u) => ({
      id: u.id,
      displayName: u.displayName,
      photoUrl: u.photoUrl,
    }));
  }

  /** Who was given each of these items directly. */
  membersOf(
    resourceIds: string[],
  ): Promise<{ resourceId: string; id: string; displayName: string; photoUrl: string | null }[]> {
    return this.deps.users.membersOf(resourceIds);
  }

  /** Active plan skus of a user; Free is implicit. */
  async activeSkus(userId: string): Promise<PlanSku[]> {
    const grants = await this.deps.users.grantsFor([userId]);
    return grants.filter((g) => isGrantActive(g)).map((g) => g.sku as PlanSku);
  }

  async me(actor: Actor): Promise<Me> {
    // Read again, not taken from the actor's lookup: a change made earlier in the same request shows.
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw AppError.unauthorized();
    const grants = await this.deps.users.grantsFor([user.id]);
    const active = grants.filter((g) => isGrantActive(g)).map((g) => g.sku as PlanSku);
    const flags = { isAdmin: user.isAdmin, canBroadcast: user.canBroadcast };
    const account = await this.deps.account.pendingEmailAndPreferences(user.id);
    return {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      photoUrl: user.photoUrl,
      isAdmin: user.isAdmin,
      canBroadcast: user.canBroadcast,
      createdAt: user.createdAt.toISOString(),
      plans: grants.map((g) => presentGrant(g, this.deps.clock.now())),
      limits: mergePlans(active),
      capabilities: { admin: user.isAdmin, changeEmail: this.deps.identity.mode === 'embedded' },
      entitlements: await this.deps.account.summary(user.id, { flags, grants }),
      pendingEmail: account.pendingEmail,
      notifications: account.preferences,
    };
  }
}
