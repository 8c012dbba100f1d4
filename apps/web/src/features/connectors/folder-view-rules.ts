/** The rules of the linked-storage folder view, apart from React: what is chosen, where a hit is, keys. */

export const extensionOf = (name: string) =>
  name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

/** Which files may be picked: extensions without the dot (['wav', 'mp3']), or 'any' (a transfer takes every file). */
export type AcceptedFiles = readonly string[] | 'any';

export const accepts = (accept: AcceptedFiles, name: string) => accept === 'any' || accept.includes(extensionOf(name));

/** The folder a path is in: '/A/B/c.wav' is in '/A/B', '/c.wav' in '/'. */
export function folderOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  return `/${segments.slice(0, -1).join('/')}`;
}

/** A folder's names from the top, for a breadcrumb: '/' has none. */
export const crumbsOf = (folder: string): string[] => folder.split('/').filter(Boolean);

/**
 * What the view shows as chosen: in a multi-pick (`chosen`, the paths picked in this account) every
 * one of them; otherwise the one file picked, when it is of this account.
 */
export function isChosen(
  path: string,
  connectorId: string,
  selection: { chosen?: readonly string[] | undefined; picked: { connectorId: string; path: string } | null },
): boolean {
  if (selection.chosen) return selection.chosen.includes(path);
  return selection.picked?.connectorId === connectorId && selection.picked.path === path;
}

/**
 * The entry a key moves the focus to in the list (up, down, first, last), or null for any other
 * key. Movement stops at either end rather than wrapping, as in a file list.
 */
export function movedIndex(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowDown') return Math.min(index + 1, count - 1);
  if (key === 'ArrowUp') return Math.max(index - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** The search box's words: a provider that searches says how far, the others filter the open folder. */
export function searchTexts(searchable: boolean, provider: string) {
  return searchable
    ? { label: 'Search by name', placeholder: `Search all of ${provider} by name`, note: null }
    : {
        label: 'Filter by name',
        placeholder: 'Filter this folder by name',
        note: `${provider} offers no search here: only the names in this folder are filtered.`,
      };
}
