import type { EventData } from '@mixroom/contracts';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import type { EventBus } from '../../platform/realtime/event-bus';

/** The topic of a folder's content. */
export const folderTopic = (groupId: string) => `group:${groupId}`;

/** What an event needs to know of the item it is about. */
export interface EventItem {
  id: string;
  kind: 'group' | 'project';
  /** The folder that lists it; null at its publisher's root. */
  folderId: string | null;
  publisherId: string;
}

export const eventItem = {
  group: (row: { id: string; parentId: string | null; publisherId: string }): EventItem => ({
    id: row.id,
    kind: 'group',
    folderId: row.parentId,
    publisherId: row.publisherId,
  }),
  project: (row: { id: string; groupId: string | null; publisherId: string }): EventItem => ({
    id: row.id,
    kind: 'project',
    folderId: row.groupId,
    publisherId: row.publisherId,
  }),
};

/**
 * Storage changes are announced where they show, and only there: on the folder that lists the item
 * (whose topic only its viewers may follow); for a root-level item, on its publisher's own topic;
 * and on the own topic of everyone the item was shared with directly (it sits at their root).
 * Nothing goes to a topic every user hears. Events carry ids, never names; a client refetches what
 * it may see.
 */
export class StorageEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly facts: ItemAccessRepository,
  ) {}

  private async topics(item: EventItem, previousFolderId?: string | null): Promise<string[]> {
    const topics = new Set<string>();
    for (const folder of previousFolderId === undefined ? [item.folderId] : [item.folderId, previousFolderId]) {
      topics.add(folder ? folderTopic(folder) : `user:${item.publisherId}`);
    }
    for (const member of await this.facts.directMembers([item.id])) topics.add(`user:${member}`);
    return [...topics];
  }

  /** `previousFolderId` is where a moved item was listed before. */
  async changed(item: EventItem, action: string, previousFolderId?: string | null): Promise<void> {
    const data: EventData<'storage.changed'> = { itemId: item.id, kind: item.kind, action };
    for (const topic of await this.topics(item, previousFolderId))
      await this.bus.publish({ topic, type: 'storage.changed', data });
  }

  /** Attachments are announced to the project's reviewers, who see the project's files. */
  attachment(parentId: string, data: EventData<'attachment.changed'>): Promise<void> {
    return this.bus.publish({ topic: `project:${parentId}`, type: 'attachment.changed', data });
  }

  /** A version's verdict, to the open review and to the own topic of everyone who may see it. */
  async approval(audience: string[], data: EventData<'approval.changed'>): Promise<void> {
    for (const topic of [`project:${data.projectId}`, ...audience.map((id) => `user:${id}`)])
      await this.bus.publish({ topic, type: 'approval.changed', data });
  }

  /**
   * Processing progress of a version, where its project shows; an attachment's also on its parent
   * project's review, whose attachment list shows it playable once it is ready.
   */
  async progress(data: EventData<'version.progress'>): Promise<void> {
    const found = await this.facts.project(data.projectId);
    if (!found) return;
    const topics = await this.topics(eventItem.project(found.row));
    if (found.row.parentProjectId) topics.push(`project:${found.row.parentProjectId}`);
    for (const topic of topics) await this.bus.publish({ topic, type: 'version.progress', data });
  }
}
