/**
 * The one layout of stored files: everything of a project (a storage project, a transfer's file or an
 * attachment) under `projects/{projectId}/`, each version's files under `{versionId}/`. Deleting a
 * prefix removes exactly what belongs to it, so every key and prefix is spelled here.
 */
export const projectBlobPrefix = (projectId: string): string => `projects/${projectId}/`;

export const versionBlobPrefix = (projectId: string, versionId: string): string =>
  `${projectBlobPrefix(projectId)}${versionId}/`;

/** One named file of a version: `original.wav`, `peaks.json`, `spectrogram.png`, ... */
export const versionBlobKey = (projectId: string, versionId: string, name: string): string =>
  `${versionBlobPrefix(projectId, versionId)}${name}`;
