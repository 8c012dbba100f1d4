import type { AdminUserRow, AdminUsersResponse } from '@mixroom/contracts';
import type { PlanSku } from '@mixroom/shared';
import { assertAdmin } from '../../access/admin.policy';
import { AppError } from '../../http/app-error';
import type { EventBus } from '../../platform/realtime/event-bus';
import { EVENT_TYPES } from '@mixroom/contracts';
import type { UsersRepository } from '../users/users.repository';
import { presentGrant, type Actor } from '../users/users.service';

export class AdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly bus: EventBus,
  ) {}

  async listUsers(
    actor: Actor | null,
    query: { search?: string | undefined; page: number; pageSize: number },
  ): Promise<AdminUsersResponse> {
    assertAdmin(actor);
    const { total, rows } = await this.users.list({
      search: query.search,
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    const grants = await this.users.grantsFor(rows.map((r) => r.id));
    const users: AdminUserRow[] = rows.map((u) => ({
      id: u.id,
      uid: u.id,
      displayName: u.displayName,
      email: u.email,
      name: u.displayName,
      photoUrl: u.photoUrl,
      phoneNumber: u.phoneNumber,
      providerId: u.provider === 'password' ? 'mixroom' : u.provider,
      authProviders: [u.provider === 'password' ? 'password' : 'oidc'],
      isAdmin: u.isAdmin,
      canBroadcast: u.canBroadcast,
      createdAt: u.createdAt.toISOString(),
      plans: grants.filter((g) => g.userId === u.id).map((g) => presentGrant(g)),
    }));
    return { total, page: query.page, pageSize: query.pageSize, users };
  }

  async grantPlan(actor: Actor | null, userId: string, input: { sku: PlanSku; endsAt: string | null }) {
    assertAdmin(actor);
    if (!(await this.users.findById(userId))) throw AppError.notFound('No such user.');
    if (input.endsAt && new Date(input.endsAt).getTime() <= Date.now())
      throw AppError.badRequest('The end date must be in the future.');
    const grant = await this.users.addGrant({
      userId,
      sku: input.sku,
      endsAt: input.endsAt ? new Date(input.endsAt) : null,
      grantedBy: actor.userId,
    });
    await this.bus.publish({ topic: `user:${userId}`, type: EVENT_TYPES.userUpdated, data: { userId } });
    return presentGrant(grant);
  }

  async revokePlan(actor: Actor | null, userId: string, grantId: string): Promise<void> {
    assertAdmin(actor);
    if (!(await this.users.deleteGrant(userId, grantId))) throw AppError.notFound('No such plan grant.');
    await this.bus.publish({ topic: `user:${userId}`, type: EVENT_TYPES.userUpdated, data: { userId } });
  }
}
