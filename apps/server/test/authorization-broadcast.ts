import type { BroadcastRoom } from '@mixroom/contracts';
import { call } from './helpers/api';
import type { Actor, Row } from './authorization-table';

/**
 * Broadcast rows: the publisher (Studio) and the viewer (Live Basic) may broadcast by their plans;
 * the editor, the stranger and the administrator (no plan, no canBroadcast) get 403, anonymous 401.
 * Room actions by a broadcaster code reach only its owner's room. A public view needs the current
 * viewer code only; `revokedLink` holds a replaced one.
 */
const BROADCASTERS: Actor[] = ['publisher', 'viewer'];
const ANYONE: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'anonymous', 'admin'];

export interface BroadcastWorld {
  broadcasterCode: string;
  viewerCode: string;
  oldViewerCode: string;
}

/** The publisher's room, with a viewer code replaced once (the old one is the revoked link). */
export async function makeBroadcastWorld(url: string, publisherToken: string): Promise<BroadcastWorld> {
  const before = (await call(url, '/api/broadcast', { token: publisherToken })).body as unknown as BroadcastRoom;
  const after = (
    await call(url, '/api/broadcast/codes/viewer-realtime/regenerate', { method: 'POST', token: publisherToken })
  ).body as unknown as BroadcastRoom;
  return { broadcasterCode: after.broadcasterCode, viewerCode: after.viewerCode, oldViewerCode: before.viewerCode };
}

export function broadcastRows(world: () => BroadcastWorld): Row[] {
  const own = () => `/api/broadcast/${world().broadcasterCode}`;
  const viewer = (actor: Actor) => (actor === 'revokedLink' ? world().oldViewerCode : world().viewerCode);
  return [
    { name: 'my streaming room', method: 'GET', path: () => '/api/broadcast', allow: BROADCASTERS },
    {
      name: 'broadcast title and countdown',
      method: 'PATCH',
      path: () => '/api/broadcast',
      body: () => ({ title: 'Matrix night', countdownTime: null }),
      allow: BROADCASTERS,
    },
    { name: 'new stream key', method: 'POST', path: () => '/api/broadcast/stream-key', allow: BROADCASTERS },
    { name: "start the publisher's broadcast", method: 'POST', path: () => `${own()}/start`, allow: ['publisher'] },
    {
      name: "publish token of the publisher's broadcast",
      method: 'POST',
      path: () => `${own()}/media-token`,
      allow: ['publisher'],
    },
    { name: "stop the publisher's broadcast", method: 'POST', path: () => `${own()}/stop`, allow: ['publisher'] },
    {
      name: 'public broadcast view',
      method: 'GET',
      path: (_w, actor) => `/api/public/broadcast/${viewer(actor)}`,
      allow: ANYONE,
    },
    {
      name: 'public broadcast access',
      method: 'POST',
      path: (_w, actor) => `/api/public/broadcast/${viewer(actor)}/access`,
      allow: ANYONE,
    },
  ];
}
