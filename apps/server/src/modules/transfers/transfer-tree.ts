import { randomUUID } from 'node:crypto';
import { nameProblem } from '@mixroom/shared';

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
 * children; `folderOf` gives each file's folder (the root for top-level files).
 */
export function planFolders(
  rootId: string,
  paths: string[],
): { folders: PlannedFolder[]; folderOf: (path: string) => { id: string; path: string[]; relative: string } } {
  const byRelative = new Map<string, PlannedFolder>();
  const folders: PlannedFolder[] = [];
  const ensure = (segments: string[]): { id: string; path: string[]; relative: string } => {
    if (segments.length === 0) return { id: rootId, path: [rootId], relative: '' };
    const relative = segments.join('/');
    const known = byRelative.get(relative);
    if (known) return known;
    const parent = ensure(segments.slice(0, -1));
    const id = randomUUID();
    const folder: PlannedFolder = {
      id,
      name: segments[segments.length - 1]!,
      parentId: parent.id,
      path: [...parent.path, id],
      relative,
    };
    byRelative.set(relative, folder);
    folders.push(folder);
    return folder;
  };
  for (const path of paths) ensure(folderSegments(path));
  return { folders, folderOf: (path) => ensure(folderSegments(path)) };
}
