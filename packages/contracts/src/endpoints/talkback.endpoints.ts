import { z } from 'zod';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';
import { liveCodeParams, liveResourceParams } from '../live';
import { talkbackSlots, talkbackToken, talkbackTokenBody } from '../talkback';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const noContent = { 204: z.null(), ...errors };
/** WHIP/WHEP: the bearer is a talkback token (not a user's access token); SDP travels as text. */
const media = { tags: ['talkback'], auth: false, raw: 'file' } as const;
const sdp = z.string().max(64_000);

/** The talkback token, on API nodes: only participants admitted to the room get one. */
export const talkbackEndpoints = {
  token: endpoint({
    tags: ['talkback'],
    auth: true,
    method: 'POST',
    path: '/api/live/:code/talkback/token',
    summary: 'A short-lived bearer for talkback WHIP (talk) or WHEP (hear the others): admitted participants only',
    params: liveCodeParams,
    body: talkbackTokenBody,
    responses: { 200: talkbackToken, ...errors },
  }),
} as const;

/** Talkback WHIP (talk) and WHEP (hear everyone else), served by `sfu` nodes like the music. */
export const talkbackMediaEndpoints = {
  whip: endpoint({
    ...media,
    method: 'POST',
    path: '/api/live/:code/talkback/whip',
    summary: 'Talkback WHIP: application/sdp offer with one Opus microphone track → 201 answer + Location',
    params: liveCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whipPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/live/:code/talkback/whip/:resourceId',
    summary: 'Talkback WHIP trickle ICE',
    params: liveResourceParams,
    body: sdp,
    responses: noContent,
  }),
  whipDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/live/:code/talkback/whip/:resourceId',
    summary: 'Talkback WHIP stop talking',
    params: liveResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
  whep: endpoint({
    ...media,
    method: 'POST',
    path: '/api/live/:code/talkback/whep',
    summary: 'Talkback WHEP: offer with slotCount recvonly audio m-lines → 201 answer + Location',
    params: liveCodeParams,
    body: sdp,
    responses: { 201: sdp, ...errors, 503: errorResponse },
  }),
  whepSlots: endpoint({
    tags: ['talkback'],
    auth: false,
    method: 'GET',
    path: '/api/live/:code/talkback/whep/:resourceId',
    summary: "Which participant each slot of the caller's own talkback WHEP resource carries",
    params: liveResourceParams,
    responses: { 200: talkbackSlots, ...errors },
  }),
  whepPatch: endpoint({
    ...media,
    method: 'PATCH',
    path: '/api/live/:code/talkback/whep/:resourceId',
    summary: 'Talkback WHEP trickle ICE',
    params: liveResourceParams,
    body: sdp,
    responses: noContent,
  }),
  whepDelete: endpoint({
    ...media,
    method: 'DELETE',
    path: '/api/live/:code/talkback/whep/:resourceId',
    summary: 'Talkback WHEP stop listening',
    params: liveResourceParams,
    responses: { 200: z.null(), ...errors },
  }),
} as const;
