import { randomUUID } from 'node:crypto';
import { FOLDER_TREE_LIMITS, FOLDER_TREE_MESSAGES, nameProblem } from '@mixroom/shared';
import { AppError } from '../../http/app-error';

/** A folder of a transfer's tree, with the ids of its ancestors and itself, root first. */
export interface PlannedFolder {
  id: string;
  name: string;
  parentId: string;
  path: string[];
  /** Its path inside the transfer ("Session/Drums"). */
  relative: string;
}

/**
 * Splits a picked file's folder path into clean segments: separators of either kind, no empty,
 * '.' or '..' parts, and no segment the shared name rule refuses (those are replaced by '_').
 */
export function folderSegments(path: string): string[] {
  return path
    .split(/[/\\]+/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map((segment) => (nameProblem(segment) ? '_' : segment.slice(0, 100)));
}

/**
 * The folders a transfer needs under its root, one per distinct path prefix, parents before
 * children; `folderOf` gives each file's folder (the root for top-level files). A path deeper than
 * the limit, or more folders than one request may create, is refused before anything is written.
 * The walk is a loop over a path's segments, never a recursion on their number.
 */
export function planFolders(
  rootId: string,
  paths: string[],
): { folders: PlannedFolder[]; folderOf: (path: string) => { id: string; path: string[]; relative: string } } {
  const root = { id: rootId, path: [rootId], relative: '' };
  const byRelative = new Map<string, PlannedFolder>();
  const folders: PlannedFolder[] = [];
  const ensure = (segments: string[]): { id: string; path: string[]; relative: string } => {
    if (segments.length > FOLDER_TREE_LIMITS.depthMax)
      throw AppError.badRequest(FOLDER_TREE_MESSAGES.tooDeep, 'FOLDER_TOO_DEEP');
    let parent: { id: string; path: string[]; relative: string } = root;
    for (const name of segments) {
      const relative = parent.relative ? `${parent.relative}/${name}` : name;
      let folder = byRelative.get(relative);
      if (!folder) {
        if (folders.length >= FOLDER_TREE_LIMITS.foldersPerRequestMax)
          throw AppError.badRequest(FOLDER_TREE_MESSAGES.tooMany, 'TOO_MANY_FOLDERS');
        const id = randomUUID();
        folder = { id, name, parentId: parent.id, path: [...parent.path, id], relative };
        byRelative.set(relative, folder);
        folders.push(folder);
      }
      parent = folder;
    }
    return parent;
  };
  for (const path of paths) ensure(folderSegments(path));
  return { folders, folderOf: (path) => ensure(folderSegments(path)) };
}
