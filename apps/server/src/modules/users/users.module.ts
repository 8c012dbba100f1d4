import type { Entitlements } from '../../access/entitlements';
import type { Mailer } from '../../platform/mail/mailer';
import { mailJobs } from '../../platform/mail/mail.jobs';
import type { AppModule, CoreDeps } from '../module';
import type { CreditsService } from '../credits';
import { AccountRepository } from './account.repository';
import { Notifier } from './notifier';
import { UsersRepository } from './users.repository';
import { usersRoutes } from './users.routes';
import { UsersService } from './users.service';

export type UsersModule = AppModule<{
  users: UsersService;
  usersRepository: UsersRepository;
  accountRepository: AccountRepository;
  notifier: Notifier;
}>;

/**
 * Who people are: the user behind a token (/api/me with usage and credits), their notification
 * channels (in-app, push, e-mail) and the mail they receive. Owns the `user:{id}` and `admin`
 * realtime topics.
 */
export function createUsersModule(
  core: CoreDeps,
  deps: { entitlements: Entitlements; credits: CreditsService; mailer: Mailer },
): UsersModule {
  const usersRepository = new UsersRepository(core.db, core.clock);
  const accountRepository = new AccountRepository(core.db);
  const users = new UsersService({
    users: usersRepository,
    identity: core.config.identity,
    account: {
      facts: (userId) => accountRepository.accountFacts(userId, core.clock.now(), deps.entitlements.usageQuery(userId)),
      // The month's credits are given on the first read of a month; the balance read with the usage
      // is read again only when that grant just changed it.
      summary: async (userId, known, usage) => {
        const entitlement = await deps.entitlements.withUsage(userId, known, usage);
        const granted = await deps.credits.ensureMonthlyGrant(userId, entitlement);
        return deps.entitlements.summary(userId, entitlement, granted ? undefined : usage);
      },
    },
    clock: core.clock,
  });
  const notifier = new Notifier({
    repository: accountRepository,
    outbox: core.outbox,
    publicUrl: core.config.publicUrl,
  });
  return {
    name: 'users',
    routes: [(app) => app.register(usersRoutes, { users })],
    // Mail leaves through the queue; notices only reach addresses whose owner wants them by e-mail.
    jobs: mailJobs(
      deps.mailer,
      async (address) => (await accountRepository.preferencesByEmail(address))?.email ?? true,
    ),
    services: { users, usersRepository, accountRepository, notifier },
    topics: {
      user: { canFollow: async (actor, id) => id === actor.userId },
      admin: { canFollow: async (actor) => actor.isAdmin },
    },
  };
}
