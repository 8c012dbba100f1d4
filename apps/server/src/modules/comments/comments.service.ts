import { COMMENT_MESSAGES, roundTime } from '@mixroom/shared';
import type { Comment, CreateCommentBody, EventData } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { ItemPolicy } from '../../access/item.policy';
import type { Actor } from '../../platform/identity/actor';
import type { CommentRow, CommentsRepository } from './comments.repository';

/** What a comment may weigh to travel on its event (the bus caps a payload at 7900 bytes). */
const CARRIED_COMMENT_BYTES = 6000;

/** A hundredth of a second of slack at the end: players report the last frame's time. */
const END_SLACK = 0.01;

/**
 * Timed comments and replies on a version. Anyone who can see the project comments and replies;
 * only the author edits or deletes (spec 2 §6). Changes reach every open review live.
 */
export class CommentsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly policy: ItemPolicy,
    private readonly bus: EventBus,
  ) {}

  /** Comments follow their version's project: whoever may see it reads and writes them. */
  private async version(actor: Actor, versionId: string) {
    return (await this.policy.version(actor, versionId)).version;
  }

  private announce(projectId: string, versionId: string, action: EventData<'comment.changed'>['action'], comment?: Comment): Promise<void> {
    // NOTIFY payloads are small: a long comment in a wide script goes as ids only, and is refetched.
    const carried = comment && Buffer.byteLength(JSON.stringify(comment)) <= CARRIED_COMMENT_BYTES ? { comment } : {};
    return this.bus.publish({ topic: `project:${projectId}`, type: 'comment.changed', data: { versionId, action, ...carried } });
  }

  async list(actor: Actor, versionId: string): Promise<Comment[]> {
    await this.version(actor, versionId);
    const { top, replies } = await this.comments.forVersion(versionId);
    const people = new Map((await this.comments.authors([...top, ...replies].map((c) => c.userId))).map((u) => [u.id, u]));
    return top.map((c) =>
      presentComment(
        c,
        replies.filter((r) => r.parentId === c.id),
        (id) => people.get(id),
        actor.userId,
      ),
    );
  }

  async create(actor: Actor, versionId: string, input: CreateCommentBody): Promise<{ id: string }> {
    const version = await this.version(actor, versionId);
    const start = roundTime(input.startTime);
    const end = input.type === 'range' ? roundTime(input.endTime) : null;
    if (end !== null && end <= start) throw AppError.badRequest(COMMENT_MESSAGES.rangeOrder, 'RANGE_ORDER');
    const duration = version.durationSeconds;
    if (duration !== null && Math.max(start, end ?? 0) > duration + END_SLACK) throw AppError.badRequest(COMMENT_MESSAGES.pastEnd, 'PAST_END');
    const row = await this.comments.insert({ versionId, userId: actor.userId, type: input.type, startTime: start, endTime: end, text: input.text });
    // The new comment rides on the event, presented as everyone but its author sees it (no edit,
    // no delete), so open reviews show it without a round trip.
    const [author] = await this.comments.authors([actor.userId]);
    await this.announce(
      version.projectId,
      versionId,
      'created',
      presentComment(row, [], () => author, null),
    );
    return { id: row.id };
  }

  async reply(actor: Actor, commentId: string, text: string): Promise<{ id: string }> {
    const parent = await this.comments.find(commentId);
    if (!parent || parent.parentId) throw AppError.notFound('No such comment.');
    const version = await this.version(actor, parent.versionId);
    const row = await this.comments.insert({ versionId: parent.versionId, parentId: parent.id, userId: actor.userId, type: 'reply', text });
    await this.announce(version.projectId, parent.versionId, 'replied');
    return { id: row.id };
  }

  private async authored(actor: Actor, commentId: string) {
    const row = await this.comments.find(commentId);
    if (!row) throw AppError.notFound('No such comment.');
    const version = await this.version(actor, row.versionId);
    if (row.userId !== actor.userId) throw AppError.forbidden(COMMENT_MESSAGES.onlyAuthor);
    return { row, version };
  }

  async edit(actor: Actor, commentId: string, text: string): Promise<void> {
    const { row, version } = await this.authored(actor, commentId);
    await this.comments.updateText(row.id, text);
    await this.announce(version.projectId, row.versionId, 'edited');
  }

  /** Deleting a comment deletes its replies with it. */
  async delete(actor: Actor, commentId: string): Promise<void> {
    const { row, version } = await this.authored(actor, commentId);
    await this.comments.delete(row.id);
    await this.announce(version.projectId, row.versionId, 'deleted');
  }
}

type Person = Comment['user'];

/**
 * A comment as `viewerId` sees it: author-only edit and delete (spec 2 §6). A null viewer is
 * anyone but the author, which is how a comment travels on its realtime event.
 */
function presentComment(row: CommentRow, replies: CommentRow[], person: (id: string) => Person | undefined, viewerId: string | null): Comment {
  const who = (id: string) => person(id) ?? { id, displayName: 'Former member', photoUrl: null };
  const mine = (r: CommentRow) => ({ canEdit: r.userId === viewerId, canDelete: r.userId === viewerId });
  return {
    id: row.id,
    versionId: row.versionId,
    type: row.type === 'range' ? 'range' : 'timestamp',
    startTime: row.startTime ?? 0,
    endTime: row.endTime,
    text: row.text,
    user: who(row.userId),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    capabilities: mine(row),
    replies: replies.map((r) => ({
      id: r.id,
      user: who(r.userId),
      text: r.text,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      capabilities: mine(r),
    })),
  };
}
