import { z } from 'zod';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';
import {
  liveCodeParams,
  liveCoHostBody,
  liveEnterBody,
  liveLeaveBody,
  liveMediaToken,
  liveMediaTokenBody,
  liveRecordingBody,
  liveRecordingTicket,
  liveResourceParams,
  liveRoleParams,
  liveRoom,
  liveSession,
  liveStreamSettingsBody,
} from '../live';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
const noContent = { 204: z.null(), ...errors };
const base = { tags: ['live'], auth: true } as const;
/** WHIP/WHEP: the bearer is a media token (not a user's access token); SDP travels as text. */
const media = { tags: ['live-media'], auth: false, raw: 'file' } as const;
const sdp = z.string().max(64_000);

/**
 * Live rooms. A user has a host code and a guest code (created on first read). The host starts the
 * session under its host code; guests join with the guest code. Unknown codes, regenerated (removed)
 * codes and sessions the host has not started answer alike: 404 LIVE_NOT_STARTED with the spec's
 * 'Live Session' text.
 */
export const liveEndpoints = {
  rooms: endpoint({
    ...base,
    method: 'GET',
    path: '/api/live/rooms',
    summary: 'My host and guest room codes (created on first read) and the live URL',
    responses: { 200: liveRoom, ...errors },
  }),
  regenerate: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/rooms/:role/regenerate',
    summary: 'A new host or guest code; the old one stops at once (guests in the room are dropped)',
    params: liveRoleParams,
    responses: { 200: liveRoom, ...errors },
  }),
  start: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/start',
    summary: 'The host starts (or re-enters) its session by its host code',
    params: liveCodeParams,
    body: liveEnterBody,
    responses: { 200: liveSession, ...errors },
  }),
  join: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/join',
    summary: 'A guest joins by the guest code (404 LIVE_NOT_STARTED before the host; 409 LIVE_ROOM_FULL)',
    params: liveCodeParams,
    body: liveEnterBody,
    responses: { 200: liveSession, ...errors },
  }),
  get: endpoint({
    ...base,
    method: 'GET',
    path: '/api/live/:code',
    summary: 'The session as the caller sees it (host or admitted guest; by host or guest code)',
    params: liveCodeParams,
    responses: { 200: liveSession, ...errors },
  }),
  leave: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/leave',
    summary: "Leave: offline, the guest's stream removed; the host leaving ends publishing",
    params: liveCodeParams,
    body: liveLeaveBody,
    responses: noContent,
  }),
  coHost: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/cohost',
    summary: 'The host enables or disables a guest as co-host (Studio and Live plans)',
    params: liveCodeParams,
    body: liveCoHostBody,
    responses: { 200: liveSession, ...errors },
  }),
  settings: endpoint({
    ...base,
    method: 'PATCH',
    path: '/api/live/:code/stream',
    summary: "The caller's own stream: quality (bitrate) and source (host or co-host)",
    params: liveCodeParams,
    body: liveStreamSettingsBody,
    responses: { 200: liveSession, ...errors },
  }),
  mediaToken: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/media-token',
    summary: 'A short-lived bearer for WHIP (publish: host or co-host) or WHEP (subscribe)',
    params: liveCodeParams,
    body: liveMediaTokenBody,
    responses: { 200: liveMediaToken, ...errors },
  }),
  saveRecording: endpoint({
    ...base,
    method: 'POST',
    path: '/api/live/:code/recordings',
    summary: 'Save to project: start uploading the recording as a new version (then the upload and complete calls)',
    params: liveCodeParams,
    body: liveRecordingBody,
    responses: { 201: liveRecordingTicket, ...errors },
  }),
} as const;

/**
 * WHIP (publish) and WHEP (subscribe), served by `sfu` nodes. POST takes `application/sdp` and
 * answers 201 with the answer SDP and a Location; PATCH takes `application/trickle-ice-sdpfrag`
 * (204); DELETE ends the resource (200).
 */
export const liveMediaEndpoints = {
  whip: endpoint({
    ...media,
    method: 'POST',
    path: '/api/live/:code/whip',
    summary: 'WHIP publish: application/sdp offer → 201 answer + Location',
    params: liveCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whipPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/live/:code/whip/:resourceId',
    summary: 'WHIP trickle ICE',
    params: liveResourceParams,
    body: sdp,
    responses: noContent,
  }),
  whipDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/live/:code/whip/:resourceId',
    summary: 'WHIP stop publishing',
    params: liveResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
  whep: endpoint({
    ...media,
    method: 'POST',
    path: '/api/live/:code/whep',
    summary: 'WHEP subscribe: application/sdp offer with slotCount recvonly audio m-lines → 201 answer + Location',
    params: liveCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whepPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/live/:code/whep/:resourceId',
    summary: 'WHEP trickle ICE',
    params: liveResourceParams,
    body: sdp,
    responses: noContent,
  }),
  whepDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/live/:code/whep/:resourceId',
    summary: 'WHEP stop listening',
    params: liveResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
} as const;
