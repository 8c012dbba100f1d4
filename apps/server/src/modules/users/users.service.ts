import { isGrantActive, MESSAGES, mergePlans, type PlanSku } from '@mixroom/shared';
import type { EntitlementsSummary, Me } from '@mixroom/contracts';
import type { UsageFacts } from '../../access/entitlements.repository';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import { GRANT_CLAIM } from '../../platform/identity/session-revocations';
import type { VerifiedToken } from '../../platform/identity/token-verifier';
import type { Actor } from '../../platform/identity/actor';
import { presentGrant } from './plan-grant.presenter';
import type { AccountFacts } from './account.repository';
import type { PlanGrantRow, UserRow, UsersRepository } from './users.repository';

export type { Actor } from '../../platform/identity/actor';
import type { IdentityPort } from '../../platform/identity/identity-port';

export interface UsersServiceDeps {
  users: UsersRepository;
  identity: { mode: 'embedded' | 'external'; issuer: string };
  /** What `/api/me` tells beside the user row (the account module's and entitlements' parts). */
  account: {
    /** The pending address, notification choices, whether there are grants, and usage (one read). */
    facts(userId: string): Promise<AccountFacts>;
    /** `known`: the user's flags and plan grants, and the usage `facts` read a moment ago. */
    summary(
      userId: string,
      known: { flags: { isAdmin: boolean; canBroadcast: boolean }; grants: PlanGrantRow[] },
      usage: UsageFacts,
    ): Promise<EntitlementsSummary>;
  };
  clock: Clock;
}

export class UsersService implements IdentityPort {
  /**
   * The user row each authenticated request read to let the caller in, by the request's actor: a
   * plain read of `/api/me` answers from it instead of reading the same row again.
   */
  private readonly rowsOf = new WeakMap<Actor, UserRow>();

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
    const gid = token.claims[GRANT_CLAIM];
    const actor: Actor = {
      userId: user.id,
      isAdmin: user.isAdmin,
      email: user.email,
      displayName: user.displayName,
      sessionId: typeof gid === 'string' ? gid : null,
    };
    this.rowsOf.set(actor, user);
    return actor;
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

  /**
   * The caller's account as the app shows it. `asAuthenticated`: a request that changed nothing (a
   * plain read) answers from the row its authentication read a moment ago; after a change the row
   * is read again, so the change shows.
   */
  async me(actor: Actor, options: { asAuthenticated?: boolean } = {}): Promise<Me> {
    const known = options.asAuthenticated ? this.rowsOf.get(actor) : undefined;
    const [user, account] = await Promise.all([
      known ?? this.deps.users.findById(actor.userId),
      this.deps.account.facts(actor.userId),
    ]);
    if (!user) throw AppError.unauthorized();
    const grants = account.hasGrants ? await this.deps.users.grantsFor([actor.userId]) : [];
    const active = grants.filter((g) => isGrantActive(g)).map((g) => g.sku as PlanSku);
    const flags = { isAdmin: user.isAdmin, canBroadcast: user.canBroadcast };
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
      entitlements: await this.deps.account.summary(user.id, { flags, grants }, account.usage),
      pendingEmail: account.pendingEmail,
      notifications: account.preferences,
    };
  }
}
