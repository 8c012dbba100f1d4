/** A media job's work folder in the temp space is `media-<versionId>-<random>`. */
export const workFolderPrefix = (versionId: string) => `media-${versionId}`;

const WORK_FOLDER = /^media-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/;

/**
 * The versions whose media job a dead process left mid-way: its work folder outlived it (a job
 * removes its folder when it ends, whichever way it ends).
 */
export function interruptedVersionIds(leftovers: string[]): string[] {
  return [...new Set(leftovers.flatMap((name) => WORK_FOLDER.exec(name)?.[1] ?? []))];
}
