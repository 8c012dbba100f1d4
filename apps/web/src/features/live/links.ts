import { LIVE_URL_CODE_PLACEHOLDER, liveGuestPath } from '@mixroom/shared';

/** Where the bridge comes from: `npx @mixroom/bridge` (the Installer link opens its page). */
export const BRIDGE_INSTALLER_URL = 'https://www.npmjs.com/package/@mixroom/bridge';
export const BRIDGE_COMMAND = 'npx @mixroom/bridge';

/** The guest link to copy: the session's live URL with the guest code, made absolute. */
export function guestRoomLink(liveUrl: string | null | undefined, guestCode: string): string {
  const path = liveUrl?.includes(LIVE_URL_CODE_PLACEHOLDER)
    ? liveUrl.replace(LIVE_URL_CODE_PLACEHOLDER, guestCode)
    : liveGuestPath(guestCode);
  return new URL(path, window.location.origin).toString();
}

/** A per-tab id: the server lets a newer tab of the same user take the room over. */
export function tabInstanceId(): string {
  const key = 'mixroom.live.instance';
  let id = sessionStorage.getItem(key);
  if (!id) {
    id = crypto.randomUUID();
    sessionStorage.setItem(key, id);
  }
  return id;
}
