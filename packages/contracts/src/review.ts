import { NOTE_LIMITS, REVIEW_MESSAGES } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeText } from './common';
import { personRef } from './storage';

export const noteBody = z.object({
  html: safeText(z.string().max(NOTE_LIMITS.htmlMax, { message: REVIEW_MESSAGES.notesTooLong })),
});
export const noteResponse = z
  .object({ versionId: z.uuid(), html: z.string(), canEdit: z.boolean(), updatedAt: isoDate.nullable() })
  .meta({ id: 'VersionNote' });
export type VersionNote = z.infer<typeof noteResponse>;

export const presenceBody = z.object({ state: z.enum(['online', 'offline']) });
export const presenceEntry = z.object({ user: personRef, state: z.enum(['online', 'offline']), seenAt: isoDate });
export type PresenceEntry = z.infer<typeof presenceEntry>;
export const presenceResponse = z.object({ users: z.array(presenceEntry) }).meta({ id: 'Presence' });
