import type { groups, projects, versions } from './schema';

/** Rows of the storage tables, named once for every layer (repositories, access, presenters). */
export type GroupRow = typeof groups.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
export type ItemMode = GroupRow['mode'];
