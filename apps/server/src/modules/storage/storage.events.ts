import type { EventData } from '@mixroom/contracts';
import type { EventBus } from '../../platform/realtime/event-bus';

export const STORAGE_EVENTS = {
  changed: 'storage.changed',
  versionProgress: 'version.progress',
  attachment: 'attachment.changed',
} as const;

/** The topic of a folder's content; root-level items of every user share `group:root`. */
export const folderTopic = (groupId: string | null) => `group:${groupId ?? 'root'}`;

/**
 * Storage changes are announced on the folder that shows them. Events carry ids only; a client
 * refetches what it is allowed to see.
 */
export class StorageEvents {
  constructor(private readonly bus: EventBus) {}

  changed(folderIds: (string | null)[], data: { itemId: string; kind: 'group' | 'project'; action: string }): Promise<void> {
    const topics = [...new Set(folderIds.map(folderTopic))];
    return Promise.all(topics.map((topic) => this.bus.publish({ topic, type: STORAGE_EVENTS.changed, data }))).then(() => undefined);
  }

  /** Attachments are announced to the project's reviewers, who see the project's files. */
  attachment(parentId: string, data: { attachmentId: string; action: string }): Promise<void> {
    return this.bus.publish({ topic: `project:${parentId}`, type: STORAGE_EVENTS.attachment, data });
  }

  progress(folderId: string | null, data: EventData<'version.progress'>): Promise<void> {
    return this.bus.publish({ topic: folderTopic(folderId), type: STORAGE_EVENTS.versionProgress, data });
  }
}
