import { randomBytes } from 'node:crypto';
import { groupCapabilities, LIMITS, projectCapabilities, type Role } from '@mixroom/shared';
import type { JoinRequest, ShareInfo } from '@mixroom/contracts';
import type { AccessChanges } from '../../access/access-changes';
import type { ItemPolicy } from '../../access/item.policy';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { EventBus } from '../../platform/realtime/event-bus';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { invitationMail } from './invitation.mail';
import { RateLimiter } from './rate-limiter';
import type { ResourceType, SharingRepository } from './sharing.repository';

export const SHARING_EVENTS = {
  joinRequested: 'join.requested',
  joinDecided: 'join.decided',
  sharingChanged: 'sharing.changed',
} as const;

interface Resolved {
  type: ResourceType;
  id: string;
  name: string;
  publisherId: string;
  role: Role;
}

const HOUR = 3_600_000;

/** Sharing: collaborators, roles, invitations, join requests, public links. */
export interface SharingServiceDeps {
  repository: SharingRepository;
  policy: ItemPolicy;
  accessChanges: AccessChanges;
  jobs: JobQueue;
  bus: EventBus;
  publicUrl: string;
  clock: Clock;
  /** Queues a Web Push message to a user's devices. */
  pushTo: (userId: string, message: { title: string; body: string; url: string }) => Promise<void>;
}

const notFoundText = (type: ResourceType) =>
  type === 'group' ? 'There was an error retrieving the group' : 'There was an error retrieving the project';

/** Sharing: collaborators, roles, invitations, join requests, public links. */
export class SharingService {
  private readonly inviteLimiter: RateLimiter;
  private readonly joinLimiter: RateLimiter;

  constructor(private readonly deps: SharingServiceDeps) {
    this.inviteLimiter = new RateLimiter({ limit: 50, windowMs: HOUR, clock: deps.clock });
    this.joinLimiter = new RateLimiter({ limit: 20, windowMs: HOUR, clock: deps.clock });
  }

  /** The resource with the actor's role; the item policy refuses the unauthorized and the trash. */
  private async resolve(actor: Actor, type: ResourceType, id: string): Promise<Resolved> {
    if (type === 'group') {
      const { group, role } = await this.deps.policy.folder(actor, id);
      return { type, id, name: group.name, publisherId: group.publisherId, role };
    }
    const { project, role } = await this.deps.policy.project(actor, id);
    return { type, id, name: project.name, publisherId: project.publisherId, role };
  }

  private canEdit = (r: Resolved) =>
    (r.type === 'group' ? groupCapabilities(r.role) : projectCapabilities(r.role, false)).canEdit;

  private publicUrlOf(type: ResourceType, token: string): string {
    return `${this.deps.publicUrl}/public/share?${type === 'group' ? 'shared_group' : 'shared_project'}=${token}`;
  }

  private async inviteUrl(resource: Resolved, actor: Actor): Promise<string> {
    const link = await this.deps.repository.ensureLink({
      // 128 bits (22 characters): too many to walk through. Codes made shorter before keep working.
      token: randomBytes(16).toString('base64url'),
      kind: 'invite',
      resourceId: resource.id,
      resourceType: resource.type,
      createdBy: actor.userId,
    });
    return `${this.deps.publicUrl}/j/${link.token}`;
  }

  async info(actor: Actor, type: ResourceType, id: string): Promise<ShareInfo> {
    const resource = await this.resolve(actor, type, id);
    const owner = resource.role === 'OWNER';
    const [publisher] = await this.deps.repository.usersByIds([resource.publisherId]);
    const members = await this.deps.repository.members(id);
    const link = await this.deps.repository.link(id, 'public');
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
      capabilities: {
        // Who may see an item is its publisher's call: editors may not publish it to the world.
        canTogglePublicLink: owner,
        canInvite: this.canEdit(resource),
        canManageUsers: owner,
      },
    };
  }

  /**
   * The publisher only: a public link changes who may see the item, which editors may not do.
   * Turning a link off makes its token useless at once and tells every node, whose hubs drop the
   * sockets of public visitors that followed the item; turning it on again issues a new token, so an old link that was passed
   * around stays dead.
   */
  async setPublicLink(
    actor: Actor,
    type: ResourceType,
    id: string,
    isActive: boolean,
  ): Promise<{ url: string | null; isActive: boolean }> {
    const resource = await this.resolve(actor, type, id);
    if (resource.role !== 'OWNER') throw AppError.forbidden('Only the publisher can change the public link.');
    const newToken = () => randomBytes(16).toString('base64url');
    const existing = await this.deps.repository.link(id, 'public');
    let token: string;
    if (!existing) {
      token = (
        await this.deps.repository.ensureLink({
          token: newToken(),
          kind: 'public',
          resourceId: id,
          resourceType: type,
          active: isActive,
          createdBy: actor.userId,
        })
      ).token;
    } else if (isActive && !existing.active) {
      token = newToken();
      await this.deps.repository.replaceToken(existing.token, token, true);
    } else {
      token = existing.token;
      await this.deps.repository.setLinkActive(token, isActive);
    }
    // Signed-out sockets holding a grant for the item are re-checked on every node, and let go.
    if (!isActive) await this.deps.accessChanges.forEveryone();
    return { url: isActive ? this.publicUrlOf(type, token) : null, isActive };
  }

  /** E-mails with the invitation link; at most 50 an hour per sender. */
  async sendInvites(actor: Actor, type: ResourceType, id: string, emails: string[]): Promise<{ sent: number }> {
    const resource = await this.resolve(actor, type, id);
    if (!this.canEdit(resource)) throw AppError.forbidden();
    const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
    if (!this.inviteLimiter.take(actor.userId, unique.length))
      throw AppError.tooMany('You have sent many invitations in the last hour. Please try again later.');
    const link = await this.inviteUrl(resource, actor);
    for (const to of unique)
      await this.deps.jobs.send(sendMailJob, {
        to,
        notice: true,
        ...invitationMail(actor.displayName, type, resource.name, link),
      });
    return { sent: unique.length };
  }

  async setPermission(
    actor: Actor,
    type: ResourceType,
    id: string,
    userId: string,
    permission: 'VIEWER' | 'EDITOR',
  ): Promise<void> {
    const resource = await this.resolve(actor, type, id);
    if (resource.role !== 'OWNER') throw AppError.forbidden('Only the publisher can change permissions.');
    if (!(await this.deps.repository.setPermission(id, userId, permission)))
      throw AppError.notFound('This user is not a collaborator.');
    await this.deps.accessChanges.forUsers([userId]);
    await this.announce(resource, [userId]);
  }

  /** A project's users are removed by its publisher; a group's also by the user themself. */
  async removeUser(actor: Actor, type: ResourceType, id: string, userId: string): Promise<void> {
    const resource = await this.resolve(actor, type, id);
    const allowed = resource.role === 'OWNER' || (type === 'group' && userId === actor.userId);
    if (!allowed) throw AppError.forbidden();
    if (userId === resource.publisherId) throw AppError.badRequest('The publisher cannot be removed.');
    if (!(await this.deps.repository.removeMember(id, userId)))
      throw AppError.notFound('This user is not a collaborator.');
    // Before anything else is announced: the removed user's open sockets lose the item's topics.
    await this.deps.accessChanges.forUsers([userId]);
    await this.announce(resource, [userId]);
  }

  private async announce(resource: Resolved, userIds: string[]): Promise<void> {
    for (const userId of new Set([...userIds, resource.publisherId])) {
      await this.deps.bus.publish({
        topic: `user:${userId}`,
        type: SHARING_EVENTS.sharingChanged,
        data: { resourceId: resource.id },
      });
    }
  }

  /**
   * What an invitation points at, for the Join Request dialog. An item's id alone reveals nothing:
   * it takes the invitation's code (from the /j/{code} link) or access already held.
   */
  async joinTarget(actor: Actor, type: ResourceType, id: string, code?: string) {
    const found = await this.deps.policy.lookup(type, id);
    if (!found || found.trashed || found.row.flag !== 'NONE') throw AppError.notFound(notFoundText(type));
    const role = await this.deps.policy.role(actor, found.row);
    if (role === 'NONE' && !(code && (await this.deps.policy.isInvitedBy(id, code))))
      throw AppError.notFound(notFoundText(type));
    const request = await this.deps.repository.joinRequest(id, actor.userId);
    return {
      type,
      id,
      name: found.row.name,
      isMember: role !== 'NONE',
      request: request?.status ?? null,
      publisherId: found.row.publisherId,
    };
  }

  async requestJoin(actor: Actor, type: ResourceType, id: string, code?: string): Promise<void> {
    const target = await this.joinTarget(actor, type, id, code);
    if (target.isMember) throw AppError.conflict('You already have access.', 'ALREADY_MEMBER');
    if (!this.joinLimiter.take(actor.userId))
      throw AppError.tooMany('You have asked to join many times in the last hour. Please try again later.');
    await this.deps.repository.upsertJoinRequest({
      resourceId: id,
      resourceType: type,
      userId: actor.userId,
      publisherId: target.publisherId,
    });
    await this.deps.bus.publish({
      topic: `user:${target.publisherId}`,
      type: SHARING_EVENTS.joinRequested,
      data: { resourceId: id, userId: actor.userId },
    });
    await this.deps.pushTo(target.publisherId, {
      title: 'Join Request',
      body: `${actor.displayName} asks to join “${target.name}”.`,
      url: '/groups',
    });
  }

  async listRequests(actor: Actor): Promise<{ incoming: JoinRequest[]; outgoing: JoinRequest[] }> {
    const rows = await this.deps.repository.requestsOf(actor.userId);
    const people = new Map(
      (await this.deps.repository.usersByIds([...new Set(rows.map((r) => r.userId))])).map((u) => [u.id, u]),
    );
    const names = new Map<string, string>();
    for (const r of rows)
      names.set(r.resourceId, (await this.deps.policy.lookup(r.resourceType, r.resourceId))?.row.name ?? '');
    const present = (r: (typeof rows)[number]): JoinRequest => ({
      resourceType: r.resourceType,
      resourceId: r.resourceId,
      resourceName: names.get(r.resourceId) ?? '',
      user: people.get(r.userId) ?? { id: r.userId, displayName: 'Unknown', photoUrl: null },
      publisherId: r.publisherId,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    });
    return {
      incoming: rows.filter((r) => r.publisherId === actor.userId).map(present),
      outgoing: rows.filter((r) => r.userId === actor.userId).map(present),
    };
  }

  /** The publisher approves (the requester becomes a viewer) or rejects. */
  async decide(actor: Actor, resourceId: string, userId: string, decision: 'approve' | 'reject'): Promise<void> {
    const request = await this.deps.repository.joinRequest(resourceId, userId);
    if (!request || request.publisherId !== actor.userId) throw AppError.notFound('No such request.');
    if (request.status !== 'pending') throw AppError.conflict('This request was already answered.', 'ALREADY_DECIDED');
    if (decision === 'approve') {
      if (
        request.resourceType === 'group' &&
        (await this.deps.repository.countMembers(resourceId)) + 1 >= LIMITS.usersPerGroup
      ) {
        throw AppError.conflict(`A group can have at most ${LIMITS.usersPerGroup} users.`, 'GROUP_FULL');
      }
      await this.deps.repository.addMember(resourceId, request.resourceType, userId, 'VIEWER');
    }
    await this.deps.repository.decide(resourceId, userId, decision === 'approve' ? 'approved' : 'rejected');
    const name = (await this.deps.policy.lookup(request.resourceType, resourceId))?.row.name ?? '';
    await this.deps.pushTo(userId, {
      title: 'Join Request',
      body: decision === 'approve' ? `You can now open “${name}”.` : `Your request to join “${name}” was declined.`,
      url: decision === 'approve' && request.resourceType === 'group' ? `/groups/${resourceId}` : '/groups',
    });
    for (const topic of [`user:${userId}`, `user:${actor.userId}`]) {
      await this.deps.bus.publish({
        topic,
        type: SHARING_EVENTS.joinDecided,
        data: { resourceId, userId, status: decision === 'approve' ? 'approved' : 'rejected' },
      });
    }
  }

  /** /j/{code} → the join screen. */
  async resolveInvite(code: string): Promise<string | null> {
    const link = await this.deps.repository.linkByToken(code);
    if (!link || link.kind !== 'invite' || !link.active) return null;
    return `/join?id=${link.resourceId}&type=${link.resourceType}&t=1&invite=${encodeURIComponent(code)}`;
  }

  /**
   * Who invites to what, for someone who opened an invitation before signing in: only the holder of
   * a live invitation code learns the item's name, and nothing else about it.
   */
  async invitationPreview(code: string): Promise<{ type: ResourceType; name: string; inviter: string }> {
    const link = await this.deps.repository.linkByToken(code);
    const found =
      link?.kind === 'invite' && link.active ? await this.deps.policy.lookup(link.resourceType, link.resourceId) : null;
    const row = found && !found.trashed ? found.row : null;
    if (!link || !row || row.flag !== 'NONE')
      throw AppError.notFound('This invitation does not exist or is no longer valid.');
    const inviter = (await this.deps.repository.displayName(row.publisherId)) ?? 'Someone';
    return { type: link.resourceType, name: row.name, inviter };
  }
}
