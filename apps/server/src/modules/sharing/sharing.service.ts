import { randomBytes } from 'node:crypto';
import { groupCapabilities, LIMITS, projectCapabilities, type Role } from '@mixroom/shared';
import type { JoinRequest, ShareInfo } from '@mixroom/contracts';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import { AppError } from '../../http/app-error';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { EventBus } from '../../platform/realtime/event-bus';
import { sendMailJob } from '../accounts/mail.jobs';
import type { GroupsRepository } from '../storage/groups.repository';
import type { GroupsService } from '../storage/groups.service';
import type { ProjectsRepository } from '../storage/projects.repository';
import type { ProjectsService } from '../storage/projects.service';
import type { Actor } from '../users/users.service';
import { invitationMail } from './invitation.mail';
import { RateLimiter } from './rate-limiter';
import type { ResourceType, SharingRepository } from './sharing.repository';

export const SHARING_EVENTS = { joinRequested: 'join.requested', joinDecided: 'join.decided', sharingChanged: 'sharing.changed' } as const;

interface Resolved {
  type: ResourceType;
  id: string;
  name: string;
  publisherId: string;
  role: Role;
}

const HOUR = 3_600_000;

/** Sharing (spec 1 §4.5, §4.7): collaborators, roles, invitations, join requests, public links. */
export class SharingService {
  private readonly inviteLimiter = new RateLimiter(50, HOUR);
  private readonly joinLimiter = new RateLimiter(20, HOUR);

  constructor(
    private readonly repository: SharingRepository,
    private readonly groups: GroupsService,
    private readonly projects: ProjectsService,
    private readonly groupRows: GroupsRepository,
    private readonly projectRows: ProjectsRepository,
    private readonly access: ItemAccessRepository,
    private readonly jobs: JobQueue,
    private readonly bus: EventBus,
    private readonly publicUrl: string,
    /** Queues a Web Push message to a user's devices. */
    private readonly pushTo: (userId: string, message: { title: string; body: string; url: string }) => Promise<void>,
  ) {}

  /** The resource with the actor's role; the storage services refuse the unauthorized and the trash. */
  private async resolve(actor: Actor, type: ResourceType, id: string): Promise<Resolved> {
    if (type === 'group') {
      const { group, role } = await this.groups.resolve(actor, id);
      return { type, id, name: group.name, publisherId: group.publisherId, role };
    }
    const { project, role } = await this.projects.resolve(actor, id);
    return { type, id, name: project.name, publisherId: project.publisherId, role };
  }

  private canEdit = (r: Resolved) => (r.type === 'group' ? groupCapabilities(r.role) : projectCapabilities(r.role, false)).canEdit;

  private publicUrlOf(type: ResourceType, token: string): string {
    return `${this.publicUrl}/public/share?${type === 'group' ? 'shared_group' : 'shared_project'}=${token}`;
  }

  private async inviteUrl(resource: Resolved, actor: Actor): Promise<string> {
    const link = await this.repository.ensureLink({
      token: randomBytes(6).toString('base64url'),
      kind: 'invite',
      resourceId: resource.id,
      resourceType: resource.type,
      createdBy: actor.userId,
    });
    return `${this.publicUrl}/j/${link.token}`;
  }

  async info(actor: Actor, type: ResourceType, id: string): Promise<ShareInfo> {
    const resource = await this.resolve(actor, type, id);
    const owner = resource.role === 'OWNER';
    const [publisher] = await this.repository.usersByIds([resource.publisherId]);
    const members = await this.repository.members(id);
    const link = await this.repository.link(id, 'public');
    return {
      resource: { type, id, name: resource.name },
      users: [
        // E-mail addresses are shown to the publisher only.
        {
          id: resource.publisherId,
          displayName: publisher?.displayName ?? 'Publisher',
          email: owner ? actor.email : '',
          photoUrl: publisher?.photoUrl ?? null,
          role: 'PUBLISHER',
          canRemove: false,
        },
        ...members.map((m) => ({
          id: m.id,
          displayName: m.displayName,
          email: owner ? m.email : '',
          photoUrl: m.photoUrl,
          role: m.permission,
          canRemove: owner || (type === 'group' && m.id === actor.userId),
        })),
      ],
      publicLink: { url: link?.active ? this.publicUrlOf(type, link.token) : null, isActive: Boolean(link?.active) },
      inviteUrl: this.canEdit(resource) ? await this.inviteUrl(resource, actor) : '',
      maxUsers: LIMITS.usersPerGroup,
      capabilities: { canTogglePublicLink: this.canEdit(resource), canInvite: this.canEdit(resource), canManageUsers: owner },
    };
  }

  /** Publisher or editor; turning a link off makes its token useless at once. */
  async setPublicLink(actor: Actor, type: ResourceType, id: string, isActive: boolean): Promise<{ url: string | null; isActive: boolean }> {
    const resource = await this.resolve(actor, type, id);
    if (!this.canEdit(resource)) throw AppError.forbidden();
    const link = await this.repository.ensureLink({
      token: randomBytes(16).toString('base64url'),
      kind: 'public',
      resourceId: id,
      resourceType: type,
      active: isActive,
      createdBy: actor.userId,
    });
    await this.repository.setLinkActive(link.token, isActive);
    return { url: isActive ? this.publicUrlOf(type, link.token) : null, isActive };
  }

  /** E-mails with the invitation link; at most 50 an hour per sender. */
  async sendInvites(actor: Actor, type: ResourceType, id: string, emails: string[]): Promise<{ sent: number }> {
    const resource = await this.resolve(actor, type, id);
    if (!this.canEdit(resource)) throw AppError.forbidden();
    const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
    if (!this.inviteLimiter.take(actor.userId, unique.length))
      throw AppError.tooMany('You have sent many invitations in the last hour. Please try again later.');
    const link = await this.inviteUrl(resource, actor);
    for (const to of unique) await this.jobs.send(sendMailJob, { to, ...invitationMail(actor.displayName, type, resource.name, link) });
    return { sent: unique.length };
  }

  async setPermission(actor: Actor, type: ResourceType, id: string, userId: string, permission: 'VIEWER' | 'EDITOR'): Promise<void> {
    const resource = await this.resolve(actor, type, id);
    if (resource.role !== 'OWNER') throw AppError.forbidden('Only the publisher can change permissions.');
    if (!(await this.repository.setPermission(id, userId, permission))) throw AppError.notFound('This user is not a collaborator.');
    await this.announce(resource, [userId]);
  }

  /** A project's users are removed by its publisher; a group's also by the user themself. */
  async removeUser(actor: Actor, type: ResourceType, id: string, userId: string): Promise<void> {
    const resource = await this.resolve(actor, type, id);
    const allowed = resource.role === 'OWNER' || (type === 'group' && userId === actor.userId);
    if (!allowed) throw AppError.forbidden();
    if (userId === resource.publisherId) throw AppError.badRequest('The publisher cannot be removed.');
    if (!(await this.repository.removeMember(id, userId))) throw AppError.notFound('This user is not a collaborator.');
    await this.announce(resource, [userId]);
  }

  private async announce(resource: Resolved, userIds: string[]): Promise<void> {
    for (const userId of new Set([...userIds, resource.publisherId])) {
      await this.bus.publish({ topic: `user:${userId}`, type: SHARING_EVENTS.sharingChanged, data: { resourceId: resource.id } });
    }
  }

  /** What an invitation points at, for the Join Request dialog. The id itself is the secret. */
  async joinTarget(actor: Actor, type: ResourceType, id: string) {
    const row = type === 'group' ? await this.groupRows.find(id) : await this.projectRows.find(id);
    if (!row || row.flag !== 'NONE')
      throw AppError.notFound(type === 'group' ? 'There was an error retrieving the group' : 'There was an error retrieving the project');
    const role = await this.access.roleFor(actor.userId, row);
    const request = await this.repository.joinRequest(id, actor.userId);
    return { type, id, name: row.name, isMember: role !== 'NONE', request: request?.status ?? null };
  }

  async requestJoin(actor: Actor, type: ResourceType, id: string): Promise<void> {
    const target = await this.joinTarget(actor, type, id);
    if (target.isMember) throw AppError.conflict('You already have access.', 'ALREADY_MEMBER');
    if (!this.joinLimiter.take(actor.userId)) throw AppError.tooMany('You have asked to join many times in the last hour. Please try again later.');
    const row = (type === 'group' ? await this.groupRows.find(id) : await this.projectRows.find(id))!;
    await this.repository.upsertJoinRequest({ resourceId: id, resourceType: type, userId: actor.userId, publisherId: row.publisherId });
    await this.bus.publish({ topic: `user:${row.publisherId}`, type: SHARING_EVENTS.joinRequested, data: { resourceId: id, userId: actor.userId } });
    await this.pushTo(row.publisherId, { title: 'Join Request', body: `${actor.displayName} asks to join “${row.name}”.`, url: '/groups' });
  }

  async listRequests(actor: Actor): Promise<{ incoming: JoinRequest[]; outgoing: JoinRequest[] }> {
    const rows = await this.repository.requestsOf(actor.userId);
    const people = new Map((await this.repository.usersByIds([...new Set(rows.map((r) => r.userId))])).map((u) => [u.id, u]));
    const names = new Map<string, string>();
    for (const group of await this.groupRows.findMany(rows.filter((r) => r.resourceType === 'group').map((r) => r.resourceId))) names.set(group.id, group.name);
    for (const r of rows.filter((row) => row.resourceType === 'project')) names.set(r.resourceId, (await this.projectRows.find(r.resourceId))?.name ?? '');
    const present = (r: (typeof rows)[number]): JoinRequest => ({
      resourceType: r.resourceType,
      resourceId: r.resourceId,
      resourceName: names.get(r.resourceId) ?? '',
      user: people.get(r.userId) ?? { id: r.userId, displayName: 'Unknown', photoUrl: null },
      publisherId: r.publisherId,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    });
    return { incoming: rows.filter((r) => r.publisherId === actor.userId).map(present), outgoing: rows.filter((r) => r.userId === actor.userId).map(present) };
  }

  /** The publisher approves (the requester becomes a viewer) or rejects. */
  async decide(actor: Actor, resourceId: string, userId: string, decision: 'approve' | 'reject'): Promise<void> {
    const request = await this.repository.joinRequest(resourceId, userId);
    if (!request || request.publisherId !== actor.userId) throw AppError.notFound('No such request.');
    if (request.status !== 'pending') throw AppError.conflict('This request was already answered.', 'ALREADY_DECIDED');
    if (decision === 'approve') {
      if (request.resourceType === 'group' && (await this.repository.countMembers(resourceId)) + 1 >= LIMITS.usersPerGroup) {
        throw AppError.conflict(`A group can have at most ${LIMITS.usersPerGroup} users.`, 'GROUP_FULL');
      }
      await this.repository.addMember(resourceId, request.resourceType, userId, 'VIEWER');
    }
    await this.repository.decide(resourceId, userId, decision === 'approve' ? 'approved' : 'rejected');
    const name = (request.resourceType === 'group' ? await this.groupRows.find(resourceId) : await this.projectRows.find(resourceId))?.name ?? '';
    await this.pushTo(userId, {
      title: 'Join Request',
      body: decision === 'approve' ? `You can now open “${name}”.` : `Your request to join “${name}” was declined.`,
      url: decision === 'approve' && request.resourceType === 'group' ? `/groups/${resourceId}` : '/groups',
    });
    for (const topic of [`user:${userId}`, `user:${actor.userId}`]) {
      await this.bus.publish({
        topic,
        type: SHARING_EVENTS.joinDecided,
        data: { resourceId, userId, status: decision === 'approve' ? 'approved' : 'rejected' },
      });
    }
  }

  /** /j/{code} → the join screen. */
  async resolveInvite(code: string): Promise<string | null> {
    const link = await this.repository.linkByToken(code);
    if (!link || link.kind !== 'invite' || !link.active) return null;
    return `/join?id=${link.resourceId}&type=${link.resourceType}&t=1&invite=${encodeURIComponent(code)}`;
  }

  /**
   * Who invites to what, for someone who opened an invitation before signing in: only the holder of
   * a live invitation code learns the item's name, and nothing else about it.
   */
  async invitationPreview(code: string): Promise<{ type: ResourceType; name: string; inviter: string }> {
    const link = await this.repository.linkByToken(code);
    const row = link?.kind === 'invite' && link.active ? await (link.resourceType === 'group' ? this.groupRows : this.projectRows).find(link.resourceId) : null;
    if (!link || !row || row.flag !== 'NONE') throw AppError.notFound('This invitation does not exist or is no longer valid.');
    const inviter = (await this.repository.displayName(row.publisherId)) ?? 'Someone';
    return { type: link.resourceType, name: row.name, inviter };
  }
}
