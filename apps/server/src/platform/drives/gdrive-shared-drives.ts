/**
 * Google shared drives as the cloud browser shows them: one folder "Shared drives" beside My Drive's
 * own items at the root, holding a folder per shared drive, as Google's Drive for desktop shows them.
 * Paths stay names from the root: /Shared drives/<drive name>/<folder>/<file>. Where the account has
 * shared drives, a folder of My Drive's root that is itself named "Shared drives" is shadowed by them
 * (Drive's names can hold any character, so no name is free of that).
 */
export const SHARED_DRIVES = 'Shared drives';
/** The folder "Shared drives" is Mixroom's, not Google's: this id is never sent to Drive. */
export const SHARED_DRIVES_ID = 'mixroom:shared-drives';

export interface SharedDrive {
  id: string;
  name: string;
}

/**
 * The parameters a files call needs to see items of a shared drive (Drive answers 404 for them
 * without supportsAllDrives, and a files.list in one drive needs corpora=drive with its id).
 */
export function inDrive(driveId: string | null): Record<string, string> {
  return driveId ? { corpora: 'drive', driveId, includeItemsFromAllDrives: 'true', supportsAllDrives: 'true' } : {};
}

/** Every page of drives.list: the shared drives the user is a member of. */
export async function listSharedDrives(
  page: (pageToken: string | null) => Promise<{ drives?: SharedDrive[]; nextPageToken?: string }>,
): Promise<SharedDrive[]> {
  const drives: SharedDrive[] = [];
  let pageToken: string | null = null;
  do {
    const answer = await page(pageToken);
    drives.push(...(answer.drives ?? []));
    pageToken = answer.nextPageToken ?? null;
  } while (pageToken);
  return drives;
}
