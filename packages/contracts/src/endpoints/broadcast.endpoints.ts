import { z } from 'zod';
import {
  broadcastCodeParams,
  broadcastMediaToken,
  broadcastResourceParams,
  broadcastRoleParams,
  broadcastRoom,
  broadcastSettingsBody,
  broadcastStreamKey,
  publicBroadcast,
  publicBroadcastAccess,
} from '../broadcast';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };
const base = { tags: ['broadcast'], auth: true } as const;
const open = { tags: ['public'], auth: false } as const;
/** WHIP/WHEP: the bearer is a stream key or a media token (WHEP may go without); SDP travels as text. */
const media = { tags: ['broadcast-media'], auth: false, raw: 'file' } as const;
const sdp = z.string().max(64_000);

/**
 * Broadcasts: a user allowed to broadcast (an administrator's canBroadcast, or a plan with the
 * broadcast right) has a streaming room with a broadcaster code and a viewer code. Everyone else
 * gets 403 BROADCAST_NOT_ALLOWED. Listeners need only the viewer code.
 */
export const broadcastEndpoints = {
  room: endpoint({
    ...base,
    method: 'GET',
    path: '/api/broadcast',
    summary: 'My streaming room (codes created on first read), countdown, WHIP/WHEP URLs',
    responses: { 200: broadcastRoom, ...errors },
  }),
  settings: endpoint({
    ...base,
    method: 'PATCH',
    path: '/api/broadcast',
    summary: 'Title, countdown (epoch ms, null clears) and quality',
    body: broadcastSettingsBody,
    responses: { 200: broadcastRoom, ...errors },
  }),
  regenerate: endpoint({
    ...base,
    method: 'POST',
    path: '/api/broadcast/codes/:role/regenerate',
    summary: 'A new broadcaster or viewer code; the old one stops at once (listeners are dropped)',
    params: broadcastRoleParams,
    responses: { 200: broadcastRoom, ...errors },
  }),
  streamKey: endpoint({
    ...base,
    method: 'POST',
    path: '/api/broadcast/stream-key',
    summary: 'A new stream key for WHIP encoders (shown once; the previous key stops at once)',
    responses: { 200: broadcastStreamKey, ...errors },
  }),
  start: endpoint({
    ...base,
    method: 'POST',
    path: '/api/broadcast/:code/start',
    summary: 'The broadcaster opens its room by its broadcaster code (a new broadcast after one ended)',
    params: broadcastCodeParams,
    responses: { 200: broadcastRoom, ...errors },
  }),
  stop: endpoint({
    ...base,
    method: 'POST',
    path: '/api/broadcast/:code/stop',
    summary: 'The broadcaster ends the broadcast (listeners see it ended)',
    params: broadcastCodeParams,
    responses: { 200: broadcastRoom, ...errors },
  }),
  mediaToken: endpoint({
    ...base,
    method: 'POST',
    path: '/api/broadcast/:code/media-token',
    summary: "A five-minute WHIP token for the broadcaster's browser",
    params: broadcastCodeParams,
    responses: { 200: broadcastMediaToken, ...errors },
  }),
  publicGet: endpoint({
    ...open,
    method: 'GET',
    path: '/api/public/broadcast/:code',
    summary: 'A broadcast by its viewer code: title, host, countdown, state, listeners',
    params: broadcastCodeParams,
    responses: { 200: publicBroadcast, ...errors },
  }),
  publicAccess: endpoint({
    ...open,
    method: 'POST',
    path: '/api/public/broadcast/:code/access',
    summary: 'With the viewer code only: a WHEP token and a realtime grant (unknown codes are rate-limited)',
    params: broadcastCodeParams,
    responses: { 200: publicBroadcastAccess, ...errors },
  }),
} as const;

/** WHIP ingest (broadcaster code, bearer: stream key or media token) and WHEP egress (viewer code), on `sfu` nodes. */
export const broadcastMediaEndpoints = {
  whip: endpoint({
    ...media,
    method: 'POST',
    path: '/api/broadcast/:code/whip',
    summary: 'WHIP publish into the broadcast: application/sdp offer → 201 answer + Location',
    params: broadcastCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whipPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/broadcast/:code/whip/:resourceId',
    summary: 'WHIP trickle ICE',
    params: broadcastResourceParams,
    body: sdp,
    responses: { 204: z.null(), ...errors },
  }),
  whipDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/broadcast/:code/whip/:resourceId',
    summary: 'WHIP stop publishing',
    params: broadcastResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
  whep: endpoint({
    ...media,
    method: 'POST',
    path: '/api/broadcast/:code/whep',
    summary: 'WHEP listen to the broadcast by its viewer code (bearer optional) → 201 answer + Location',
    params: broadcastCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whepPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/broadcast/:code/whep/:resourceId',
    summary: 'WHEP trickle ICE',
    params: broadcastResourceParams,
    body: sdp,
    responses: { 204: z.null(), ...errors },
  }),
  whepDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/broadcast/:code/whep/:resourceId',
    summary: 'WHEP stop listening',
    params: broadcastResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
} as const;
