// How large a folder tree one request may create (a dropped folder, a transfer's files): each
// folder is a row, an event and an access check, so a small body must not ask for a million.

export const FOLDER_TREE_LIMITS = {
  /** Levels of folders: a storage folder's path from its root, or a transfer's folders below it. */
  depthMax: 32,
  /** New folders one request may name (a drop, a transfer, a file request's upload). */
  foldersPerRequestMax: 1000,
} as const;

export const FOLDER_TREE_MESSAGES = {
  tooDeep: `Folders can be nested at most ${FOLDER_TREE_LIMITS.depthMax} levels deep.`,
  tooMany: `At most ${FOLDER_TREE_LIMITS.foldersPerRequestMax} folders can be created at once.`,
} as const;

/**
 * Why a set of folder paths (each a list of segments, parents first) is refused, or null: one too
 * deep, or more distinct folders than a request may create. Iterative and stops at the first
 * excess, whatever the input.
 */
export function folderTreeProblem(paths: Iterable<readonly string[]>, depthMax: number = FOLDER_TREE_LIMITS.depthMax) {
  const seen = new Set<string>();
  for (const segments of paths) {
    if (segments.length > depthMax) return FOLDER_TREE_MESSAGES.tooDeep;
    let prefix = '';
    for (const segment of segments) {
      prefix = prefix ? `${prefix}/${segment}` : segment;
      seen.add(prefix);
    }
    if (seen.size > FOLDER_TREE_LIMITS.foldersPerRequestMax) return FOLDER_TREE_MESSAGES.tooMany;
  }
  return null;
}
