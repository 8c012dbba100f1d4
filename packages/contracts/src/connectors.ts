import { LIMITS } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeName } from './common';
import { version } from './storage';

/** The kinds of storage account a user may link, where the operator enabled them. */
export const connectorKind = z.enum(['webdav', 's3', 'dropbox', 'gdrive']);
export type ConnectorKind = z.infer<typeof connectorKind>;

/** A linked account as the browser sees it: never its credentials. */
export const connector = z
  .object({ id: z.uuid(), kind: connectorKind, accountName: z.string(), linkedAt: isoDate })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof connector>;

export const connectorList = z.object({
  /** The kinds the operator enabled, in the order Settings shows them. */
  available: z.array(connectorKind),
  linked: z.array(connector),
});
export type ConnectorList = z.infer<typeof connectorList>;

const secret = z.string().min(1, 'Required.').max(1024);
const address = z.string().trim().min(1, 'Enter the address.').max(2048);

export const linkConnectorBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('webdav'),
    url: address,
    username: z.string().trim().min(1, 'Enter the user name.').max(256),
    password: secret,
  }),
  z.object({
    kind: z.literal('s3'),
    endpoint: address,
    bucket: z
      .string()
      .trim()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'A bucket name has 3 to 63 lowercase letters, digits, dots or hyphens.',
      ),
    region: z.string().trim().min(1).max(64).default('us-east-1'),
    accessKeyId: z.string().trim().min(1, 'Enter the access key.').max(256),
    secretAccessKey: secret,
  }),
]);
export type LinkConnectorBody = z.input<typeof linkConnectorBody>;

/** The kinds linked through the provider's own sign-in (OAuth 2.0 with PKCE) rather than typed credentials. */
export const oauthConnectorKind = z.enum(['dropbox', 'gdrive']);
export type OAuthConnectorKind = z.infer<typeof oauthConnectorKind>;

export const oauthStartBody = z.object({ kind: oauthConnectorKind });
/** Where the browser goes to let the provider grant access; it comes back to Settings with a code. */
export const oauthStartAnswer = z.object({ url: z.url() });

/** What the provider sent back to Settings: the state Mixroom made and the code (or the error) it gives. */
export const oauthFinishBody = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  error: z.string().max(200).optional(),
});
export type OAuthFinishBody = z.infer<typeof oauthFinishBody>;

/** Unlinking erases the account; for an OAuth kind the provider was also asked to revoke access. */
export const unlinkAnswer = z.object({
  /** True when the provider revoked the tokens, false when it could not be asked (they were erased anyway), null when there is nothing to revoke. */
  providerRevoked: z.boolean().nullable(),
});
export type UnlinkAnswer = z.infer<typeof unlinkAnswer>;

const drivePath = z
  .string()
  .max(4096)
  .refine((p) => !p.split('/').includes('..'), 'A path may not contain "..".');

export const browseQuery = z.object({ path: drivePath.default('/'), search: z.string().trim().max(200).optional() });

export const driveEntry = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.enum(['file', 'folder']),
  size: z.number().nullable(),
  modifiedAt: z.string().nullable(),
});
export type DriveEntry = z.infer<typeof driveEntry>;

export const driveListing = z.object({
  path: z.string(),
  entries: z.array(driveEntry),
  /** Whether the provider searches the whole account; otherwise a search filters the open folder. */
  searchable: z.boolean(),
  /** What `entries` are: the open folder's (filtered by a search where it can't search), or matches from the whole account. */
  scope: z.enum(['folder', 'account']),
  /** More matched than are listed: the user should type more of the name. */
  truncated: z.boolean(),
});
export type DriveListing = z.infer<typeof driveListing>;

/**
 * A server-side copy between a linked account and Mixroom, for the Activities panel. It names either
 * a version (and its project) or, for a folder saved as one ZIP, the folder.
 */
export const connectorTransfer = z
  .object({
    id: z.uuid(),
    jobId: z.string(),
    connectorId: z.uuid(),
    direction: z.enum(['import', 'export']),
    fileName: z.string(),
    projectId: z.uuid().nullable(),
    versionId: z.uuid().nullable(),
    groupId: z.uuid().nullable(),
    status: z.enum(['running', 'done', 'failed']),
    bytesDone: z.number(),
    bytesTotal: z.number(),
    error: z.string().nullable(),
  })
  .meta({ id: 'ConnectorTransfer' });
export type ConnectorTransfer = z.infer<typeof connectorTransfer>;

export const connectorTransferList = z.object({ transfers: z.array(connectorTransfer) });

/** A linked audio file heard before it is imported: a short-lived link the browser's player streams. */
export const previewQuery = z.object({
  path: drivePath.refine((p) => p.replace(/\/+$/, '') !== '', 'Pick a file.'),
});
export const previewAnswer = z.object({ url: z.string(), expiresAt: z.string() });
export type PreviewAnswer = z.infer<typeof previewAnswer>;

/** Most files whose lengths one request asks for: a screenful of a folder and then some. */
export const DURATIONS_MAX = 100;

/**
 * The audio files of an open folder whose lengths the browser wants, as the listing showed them: the
 * listed size and date key what the server remembers, so a file changed since is read again.
 */
export const durationsBody = z.object({
  files: z
    .array(
      z.object({
        path: drivePath.refine((p) => p.replace(/\/+$/, '') !== '', 'Pick a file.'),
        size: z.number().int().nonnegative().nullable(),
        modifiedAt: z.string().max(64).nullable(),
      }),
    )
    .min(1)
    .max(DURATIONS_MAX, `Ask for at most ${DURATIONS_MAX} files at a time.`),
});
/** Seconds by path; null where the file's header does not say (or could not be read). */
export const durationsAnswer = z.object({ durations: z.record(z.string(), z.number().nonnegative().nullable()) });
export type DurationsBody = z.infer<typeof durationsBody>;
export type DurationsAnswer = z.infer<typeof durationsAnswer>;

/** A linked file becomes the next version of a project the caller may edit. */
export const importBody = z.object({
  path: drivePath.refine((p) => p.replace(/\/+$/, '') !== '', 'Pick a file.'),
  projectId: z.uuid(),
  versionName: safeName(z.string().trim().min(1, 'Enter a version name.').max(LIMITS.nameMax)),
});
export type ImportBody = z.infer<typeof importBody>;

export const importAnswer = z.object({ transfer: connectorTransfer, version });

/** "Save to…": a version's file is written into a folder of the linked account. */
export const exportBody = z.object({ versionId: z.uuid(), folder: drivePath.default('/') });
export type ExportBody = z.infer<typeof exportBody>;

export const exportAnswer = z.object({ transfer: connectorTransfer });

/**
 * "Save to…" on a folder: the folder is written as one ZIP (the projects the caller may download,
 * as the browser's ZIP holds them) into a folder of the linked account, under a name not taken there.
 */
export const exportFolderBody = z.object({ groupId: z.uuid(), folder: drivePath.default('/') });
export type ExportFolderBody = z.infer<typeof exportFolderBody>;
