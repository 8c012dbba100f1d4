import { DriveError } from './drive-error';

/** What files.get with fields=id,name,parents tells about a folder. */
export interface GoogleParentInfo {
  id: string;
  name: string;
  parents?: string[];
}

/** Folder lookups in flight at once: a search page's hits fan out to their folders. */
const PARALLEL_LOOKUPS = 6;
/** No folder in a real Drive is this deep; a deeper chain is treated as unreachable. */
const MAX_DEPTH = 100;

/**
 * The path of a Google Drive folder, found by walking up its parents one files.get at a time until
 * a known top: My Drive's root ('/') or a shared drive's root ('/Shared drives/<name>'). Drive search
 * answers with parent ids only, so every hit's folder is walked; each folder is asked once per search
 * (the answers are kept), at most PARALLEL_LOOKUPS at a time. A folder under no known top (a file
 * shared with the user from someone else's folder) has no path: null, and the hit is left out, since
 * the browser addresses files by their path.
 */
export class GdriveFolderPaths {
  private readonly paths = new Map<string, Promise<string | null>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    /** The tops' ids and their paths: My Drive's root id (and its alias 'root') is '/'. */
    private readonly tops: ReadonlyMap<string, string>,
    private readonly get: (id: string) => Promise<GoogleParentInfo>,
  ) {}

  /** A top's path, '/A/B' for a folder below one, null when the folder is under none. */
  pathOf(folderId: string, depth = 0): Promise<string | null> {
    const top = this.tops.get(folderId);
    if (top !== undefined) return Promise.resolve(top);
    if (depth > MAX_DEPTH) return Promise.resolve(null);
    let known = this.paths.get(folderId);
    if (!known) {
      known = this.walk(folderId, depth);
      this.paths.set(folderId, known);
    }
    return known;
  }

  private async walk(folderId: string, depth: number): Promise<string | null> {
    const folder = await this.limited(() => this.get(folderId)).catch((error: unknown) => {
      // A parent the account can't see (a shared file's folder) is simply not in My Drive.
      if (error instanceof DriveError && error.code === 'DRIVE_NOT_FOUND') return null;
      throw error;
    });
    const parent = folder?.parents?.[0];
    if (!folder || !parent) return null;
    const above = await this.pathOf(parent, depth + 1);
    return above === null ? null : `${above === '/' ? '' : above}/${folder.name}`;
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    while (this.running >= PARALLEL_LOOKUPS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
