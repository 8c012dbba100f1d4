import type { EndpointDefinition } from '../endpoint';
import { adminEndpoints } from './admin.endpoints';
import { authEndpoints, blobEndpoints, interactionEndpoints } from './auth.endpoints';
import { billingEndpoints } from './billing.endpoints';
import { commentEndpoints } from './comments.endpoints';
import { connectorEndpoints } from './connectors.endpoints';
import { creditEndpoints } from './credits.endpoints';
import { reviewEndpoints } from './review.endpoints';
import { sharingEndpoints } from './sharing.endpoints';
import { attachmentEndpoints, storageEndpoints } from './storage.endpoints';
import { fileRequestEndpoints, publicTransferEndpoints, transferEndpoints } from './transfers.endpoints';
import { adminToolEndpoints, toolEndpoints } from './tools.endpoints';
import { liveEndpoints, liveMediaEndpoints } from './live.endpoints';
import { broadcastEndpoints, broadcastMediaEndpoints } from './broadcast.endpoints';
import { talkbackEndpoints, talkbackMediaEndpoints } from './talkback.endpoints';
import { uploadEndpoints } from './uploads.endpoints';
import { healthEndpoints, pushEndpoints, userEndpoints } from './users.endpoints';

export * from './admin.endpoints';
export * from './auth.endpoints';
export * from './billing.endpoints';
export * from './comments.endpoints';
export * from './connectors.endpoints';
export * from './credits.endpoints';
export * from './review.endpoints';
export * from './sharing.endpoints';
export * from './storage.endpoints';
export * from './tools.endpoints';
export * from './live.endpoints';
export * from './broadcast.endpoints';
export * from './talkback.endpoints';
export * from './transfers.endpoints';
export * from './uploads.endpoints';
export * from './users.endpoints';

/** The groups of endpoints by area, each served by one routes plugin. */
export const endpointGroups = {
  auth: authEndpoints,
  interaction: interactionEndpoints,
  blob: blobEndpoints,
  health: healthEndpoints,
  users: userEndpoints,
  admin: adminEndpoints,
  uploads: uploadEndpoints,
  storage: storageEndpoints,
  attachments: attachmentEndpoints,
  sharing: sharingEndpoints,
  push: pushEndpoints,
  comments: commentEndpoints,
  review: reviewEndpoints,
  credits: creditEndpoints,
  billing: billingEndpoints,
  transfers: transferEndpoints,
  publicTransfers: publicTransferEndpoints,
  fileRequests: fileRequestEndpoints,
  tools: toolEndpoints,
  live: liveEndpoints,
  liveMedia: liveMediaEndpoints,
  broadcast: broadcastEndpoints,
  broadcastMedia: broadcastMediaEndpoints,
  talkback: talkbackEndpoints,
  talkbackMedia: talkbackMediaEndpoints,
  adminTools: adminToolEndpoints,
  connectors: connectorEndpoints,
} satisfies Record<string, Record<string, EndpointDefinition>>;

/** Every declared endpoint: the server registers them all, and a test checks that it does. */
export const allEndpoints: readonly EndpointDefinition[] = Object.values(endpointGroups).flatMap(
  (group): EndpointDefinition[] => Object.values<EndpointDefinition>(group),
);
