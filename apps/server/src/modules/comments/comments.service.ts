import {
  audacityLabels,
  COMMENT_MESSAGES,
  midiMarkers,
  plainCsvMarkers,
  reaperMarkers,
  roundTime,
  type Marker,
} from '@mixroom/shared';
import type { Comment, CreateCommentBody, EventData, MarkersQuery } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { ItemPolicy } from '../../access/item.policy';
import type { Actor } from '../../platform/identity/actor';
import type { CommentRow, CommentsRepository } from './comments.repository';

/** What a comment may weigh to travel on its event (the bus caps a payload at 7900 bytes). */
const CARRIED_COMMENT_BYTES = 6000;

/** A hundredth of a second of slack at the end: players report the last frame's time. */
const END_SLACK = 0.01;

export interface CommentsServiceDeps {
  comments: CommentsRepository;
  policy: ItemPolicy;
  bus: EventBus;
  clock: Clock;
}

/**
 * Timed comments and replies on a version. Anyone who can see the project comments and replies;
 * only the author edits or deletes. Changes reach every open review live.
 */
export class CommentsService {
  constructor(private readonly deps: CommentsServiceDeps) {}

  /** Comments follow their version's project: whoever may see it reads and writes them. */
  private async version(actor: Actor, versionId: string) {
    return (await this.deps.policy.version(actor, versionId)).version;
  }

  private announce(
    projectId: string,
    versionId: string,
    action: EventData<'comment.changed'>['action'],
    comment?: Comment,
  ): Promise<void> {
    // NOTIFY payloads are small: a long comment in a wide script goes as ids only, and is refetched.
    const carried = comment && Buffer.byteLength(JSON.stringify(comment)) <= CARRIED_COMMENT_BYTES ? { comment } : {};
    return this.deps.bus.publish({
      topic: `project:${projectId}`,
      type: 'comment.changed',
      data: { versionId, action, ...carried },
    });
  }

  async list(actor: Actor, versionId: string): Promise<Comment[]> {
    const { capabilities } = await this.deps.policy.version(actor, versionId);
    const { top, replies } = await this.deps.comments.forVersion(versionId);
    const people = new Map(
      (await this.deps.comments.authors([...top, ...replies].map((c) => c.userId))).map((u) => [u.id, u]),
    );
    return top.map((c) =>
      presentComment(
        c,
        replies.filter((r) => r.parentId === c.id),
        (id) => people.get(id),
        { id: actor.userId, moderates: capabilities.canEdit },
      ),
    );
  }

  /**
   * The version's comments as markers a DAW imports, oldest first, at their times to the
   * millisecond (shifted by the session's start). Anyone who may read the comments may export them.
   */
  async markers(
    actor: Actor,
    versionId: string,
    query: MarkersQuery,
  ): Promise<{ body: Buffer; contentType: string; fileName: string }> {
    const { version, project } = await this.deps.policy.version(actor, versionId);
    const list = (await this.list(actor, versionId)).filter((c) => query.scope === 'all' || !c.resolved);
    const markers: Marker[] = list
      .map((c) => ({
        start: c.startTime,
        end: c.endTime,
        author: c.user.displayName,
        text: c.text,
        replies: c.replies.length,
        resolved: c.resolved,
      }))
      .sort((a, b) => a.start - b.start);
    const base = `${project.name} v${version.number} comments`;
    switch (query.format) {
      case 'midi':
        return {
          body: Buffer.from(
            midiMarkers(markers, { offsetMs: query.offsetMs, title: `${project.name} v${version.number}` }),
          ),
          contentType: 'audio/midi',
          fileName: `${base}.mid`,
        };
      case 'reaper':
        return {
          body: Buffer.from(reaperMarkers(markers, query.offsetMs)),
          contentType: 'text/csv; charset=utf-8',
          fileName: `${base} (Reaper).csv`,
        };
      case 'audacity':
        return {
          body: Buffer.from(audacityLabels(markers, query.offsetMs)),
          contentType: 'text/plain; charset=utf-8',
          fileName: `${base} (Audacity labels).txt`,
        };
      case 'csv':
        return {
          body: Buffer.from(plainCsvMarkers(markers, query.offsetMs)),
          contentType: 'text/csv; charset=utf-8',
          fileName: `${base}.csv`,
        };
    }
  }

  async create(actor: Actor, versionId: string, input: CreateCommentBody): Promise<{ id: string }> {
    const version = await this.version(actor, versionId);
    const start = roundTime(input.startTime);
    const end = input.type === 'range' ? roundTime(input.endTime) : null;
    if (end !== null && end <= start) throw AppError.badRequest(COMMENT_MESSAGES.rangeOrder, 'RANGE_ORDER');
    const duration = version.durationSeconds;
    if (duration !== null && Math.max(start, end ?? 0) > duration + END_SLACK)
      throw AppError.badRequest(COMMENT_MESSAGES.pastEnd, 'PAST_END');
    const row = await this.deps.comments.insert({
      versionId,
      userId: actor.userId,
      type: input.type,
      startTime: start,
      endTime: end,
      text: input.text,
    });
    // The new comment rides on the event, presented as everyone but its author sees it (no edit,
    // no delete), so open reviews show it without a round trip.
    const [author] = await this.deps.comments.authors([actor.userId]);
    await this.announce(
      version.projectId,
      versionId,
      'created',
      presentComment(row, [], () => author, null),
    );
    return { id: row.id };
  }

  async reply(actor: Actor, commentId: string, text: string): Promise<{ id: string }> {
    const parent = await this.deps.comments.find(commentId);
    if (!parent || parent.parentId) throw AppError.notFound('No such comment.');
    const version = await this.version(actor, parent.versionId);
    const row = await this.deps.comments.insert({
      versionId: parent.versionId,
      parentId: parent.id,
      userId: actor.userId,
      type: 'reply',
      text,
    });
    await this.announce(version.projectId, parent.versionId, 'replied');
    return { id: row.id };
  }

  private async authored(actor: Actor, commentId: string) {
    const row = await this.deps.comments.find(commentId);
    if (!row) throw AppError.notFound('No such comment.');
    const version = await this.version(actor, row.versionId);
    if (row.userId !== actor.userId) throw AppError.forbidden(COMMENT_MESSAGES.onlyAuthor);
    return { row, version };
  }

  /**
   * Marks a comment done (or open again). Its author may, and so may anyone who may edit the
   * project: the engineer closing the client's notes one by one.
   */
  async resolve(actor: Actor, commentId: string, resolved: boolean): Promise<void> {
    const row = await this.deps.comments.find(commentId);
    if (!row || row.parentId) throw AppError.notFound('No such comment.');
    const { version, capabilities } = await this.deps.policy.version(actor, row.versionId);
    if (row.userId !== actor.userId && !capabilities.canEdit)
      throw AppError.forbidden('Only its author or an editor can resolve this comment.');
    if (Boolean(row.resolvedAt) === resolved) return;
    await this.deps.comments.setResolved(row.id, resolved ? { at: this.deps.clock.now(), by: actor.userId } : null);
    await this.announce(version.projectId, row.versionId, resolved ? 'resolved' : 'reopened');
  }

  async edit(actor: Actor, commentId: string, text: string): Promise<void> {
    const { row, version } = await this.authored(actor, commentId);
    await this.deps.comments.updateText(row.id, text);
    await this.announce(version.projectId, row.versionId, 'edited');
  }

  /** Deleting a comment deletes its replies with it. */
  async delete(actor: Actor, commentId: string): Promise<void> {
    const { row, version } = await this.authored(actor, commentId);
    await this.deps.comments.delete(row.id);
    await this.announce(version.projectId, row.versionId, 'deleted');
  }
}

type Person = Comment['user'];

/**
 * A comment as `viewer` sees it: only its author edits or deletes it; its author and whoever may
 * edit the project resolve it. A null viewer is anyone but the author with no edit rights, which is
 * how a comment travels on its realtime event (the receiving page refetches its capabilities).
 */
function presentComment(
  row: CommentRow,
  replies: CommentRow[],
  person: (id: string) => Person | undefined,
  viewer: { id: string; moderates: boolean } | null,
): Comment {
  const who = (id: string) => person(id) ?? { id, displayName: 'Former member', photoUrl: null };
  const mine = (r: CommentRow) => ({ canEdit: r.userId === viewer?.id, canDelete: r.userId === viewer?.id });
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
    resolved: Boolean(row.resolvedAt),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    capabilities: { ...mine(row), canResolve: row.userId === viewer?.id || Boolean(viewer?.moderates) },
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
