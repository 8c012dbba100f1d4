import { call } from './api';

/** The code of an item's invitation link, as its publisher or an editor would pass it on. */
export async function inviteCode(
  baseUrl: string,
  token: string,
  type: 'group' | 'project',
  id: string,
): Promise<string> {
  const info = await call(baseUrl, `/api/share/${type}/${id}`, { token });
  const url = (info.body as { inviteUrl?: string }).inviteUrl;
  if (!url) throw new Error(`No invitation link for ${type} ${id} (HTTP ${info.status})`);
  return url.slice(url.lastIndexOf('/j/') + 3);
}

/** The same, through a signed-in storage client of the publisher or an editor. */
export async function inviteOf(
  client: { api: <T>(path: string) => Promise<T> },
  type: 'group' | 'project',
  id: string,
): Promise<string> {
  const { inviteUrl } = await client.api<{ inviteUrl: string }>(`/api/share/${type}/${id}`);
  return inviteUrl.slice(inviteUrl.lastIndexOf('/j/') + 3);
}
