import { isRecipientEmail, TRANSFER_DURATION_DAYS, TRANSFER_MESSAGES } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeFileName, safeMessage, safeName } from './common';
import { version } from './storage';

/** A recipient address as the transfer form accepts it. */
export const recipientEmail = z.string().trim().refine(isRecipientEmail, { message: TRANSFER_MESSAGES.invalidEmail });

export const transferDurationDays = z
  .number()
  .int()
  .refine((days) => (TRANSFER_DURATION_DAYS as readonly number[]).includes(days), {
    message: `Choose a duration of ${TRANSFER_DURATION_DAYS.join(', ')} days.`,
  });

/** A file picked for a transfer: its folder inside the transfer ("Session/Drums", '' at the root). */
export const transferFileInput = z.object({
  path: z.string().max(1000).default(''),
  fileName: safeFileName(z.string().min(1, { message: 'The file has no name.' }).max(255)),
  size: z.number().int().min(1, { message: 'The file is empty.' }).max(Number.MAX_SAFE_INTEGER),
});

/**
 * A file picked in a linked storage account: the server asks the provider for its name and size,
 * then copies it into the transfer itself (never through the browser).
 */
export const linkedTransferFileInput = z.object({
  connectorId: z.uuid(),
  /** The file's path in the linked account ('/Mixes/final.wav'). */
  path: z.string().min(1).max(4096),
  /** Its folder inside the transfer ('' at the root), like a browser file's `path`. */
  folder: z.string().max(1000).default(''),
});
export type LinkedTransferFileInput = z.input<typeof linkedTransferFileInput>;

/**
 * The transfer form. Empty name, message, files or recipients pass the schema on purpose: the
 * server checks them in the order users know, each with its own text.
 */
export const createTransferBody = z.object({
  name: safeName(z.string().trim().max(100)),
  message: safeMessage(z.string().trim().max(5000)),
  mode: z.enum(['link', 'email']),
  recipients: z.array(recipientEmail).max(50).default([]),
  durationDays: transferDurationDays,
  password: z.string().min(1).max(200).nullable().default(null),
  files: z.array(transferFileInput).max(5000),
  /** Files the server copies from the owner's linked accounts; they follow `files` in the transfer. */
  linked: z.array(linkedTransferFileInput).max(500).default([]),
});
export type CreateTransferBody = z.input<typeof createTransferBody>;

/** `failed`: a file could not be stored (a copy from a linked account failed for good); it is never sent. */
export const transferStatus = z.enum(['uploading', 'available', 'expired', 'failed']);

export const transferRecipient = z.object({
  email: z.string(),
  downloadCount: z.number().int(),
  /** When this recipient last downloaded something, null before. */
  lastDownloadAt: isoDate.nullable(),
});

/** One file of a transfer (a project of the TRANSFER area with one version). */
export const transferFile = z.object({
  id: z.uuid(),
  versionId: z.uuid(),
  /** The id of its folder inside the transfer (the root folder for top-level files). */
  folderId: z.uuid(),
  /** Folder path inside the transfer ('' at the root). */
  path: z.string(),
  name: z.string(),
  fileName: z.string(),
  extension: z.string(),
  size: z.number(),
  kind: z.enum(['AUDIO', 'ANY']),
  status: z.enum(['uploading', 'processing', 'ready', 'corrupt']),
  /**
   * How much of the file is stored (0–100): a copy the server makes from a linked account reports
   * it here; a browser's upload counts its own bytes. 100 once the file is in.
   */
  storedPercent: z.number().int().min(0).max(100),
  /** Why the file could not be stored (its transfer failed); null otherwise. */
  error: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  /** Hex SHA-256 of the file's bytes; null until computed after the upload. */
  sha256: z.string().nullable(),
  /** Whether the page can play it (audio whose waveform peaks are ready). */
  hasPeaks: z.boolean(),
});
export type TransferFile = z.infer<typeof transferFile>;

export const transferFolder = z.object({ id: z.uuid(), name: z.string(), parentId: z.uuid().nullable() });

/** A history tile. */
export const transferSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: transferStatus,
    /** Why a failed transfer was not sent (which file, and what went wrong); null otherwise. */
    failure: z.string().nullable(),
    mode: z.enum(['link', 'email']),
    size: z.number(),
    fileCount: z.number().int(),
    durationDays: z.number().int(),
    createdAt: isoDate,
    expiresAt: isoDate,
    hasPassword: z.boolean(),
    /** The recipient link, {site}/public/share?transferId={token}. */
    link: z.string(),
    recipients: z.array(transferRecipient),
    anonymousDownloads: z.number().int(),
    capabilities: z.object({
      canCopy: z.boolean(),
      canEdit: z.boolean(),
      canDelete: z.boolean(),
      canReload: z.boolean(),
    }),
  })
  .meta({ id: 'TransferSummary' });
export type TransferSummary = z.infer<typeof transferSummary>;

/** The edit screen: the tile plus what it shows in full. */
export const transferDetail = transferSummary
  .extend({
    message: z.string(),
    /** The range the expiry may be moved within (creation … creation + the plan's longest duration). */
    expiryBounds: z.object({ min: isoDate, max: isoDate }),
    /** Until when an expired transfer may still be reloaded (its files are purged after). */
    purgeAt: isoDate,
    folders: z.array(transferFolder),
    files: z.array(transferFile),
  })
  .meta({ id: 'TransferDetail' });
export type TransferDetail = z.infer<typeof transferDetail>;

/**
 * What creating a transfer answers: the transfer, still uploading, whose `files` come in the order
 * of the request's `files`; each is then uploaded through its own ticket.
 */
export const createdTransfer = z.object({ transfer: transferDetail });

/** The upload orchestrator's ticket for one file of a transfer (same shape as a storage upload's). */
export const transferUploadTicket = z.object({
  upload: z.object({ id: z.uuid(), size: z.number(), partSize: z.number(), partCount: z.number() }),
  version,
});
export type TransferUploadTicket = z.infer<typeof transferUploadTicket>;

export const transferListQuery = z.object({ q: z.string().trim().max(100).optional() });
export const transferList = z.object({ items: z.array(transferSummary) });

export const updateTransferBody = z.object({
  expiresAt: isoDate.optional(),
  /** A new password, or null to remove it. */
  password: z.string().min(1).max(200).nullable().optional(),
});
export const reloadTransferBody = z.object({ durationDays: transferDurationDays });

export const transferDownloadEntry = z.object({
  id: z.uuid(),
  /** The recipient's address, null for someone with the link only. */
  email: z.string().nullable(),
  /** The file, or null for the whole transfer as a ZIP. */
  fileId: z.uuid().nullable(),
  fileName: z.string(),
  startedAt: isoDate,
  completed: z.boolean(),
  bytes: z.number(),
});
export const transferDownloadLog = z.object({ items: z.array(transferDownloadEntry) });

export const transferFileParams = z.object({ id: z.uuid(), fileId: z.uuid() });

/** The recipient link's secret: at least 128 random bits, base64url. */
export const transferToken = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, { message: TRANSFER_MESSAGES.unavailable });
export const publicTransferParams = z.object({ token: transferToken });
export const publicTransferFileParams = z.object({ token: transferToken, fileId: z.uuid() });
/** The access grant from the password check (or from the owner), carried as `g` so file URLs work anywhere. */
export const grantQuery = z.object({ g: z.string().min(20).max(2000) });

/** What anyone with the link sees before the password: the title and expiry only. */
export const publicTransferHead = z
  .object({
    title: z.string(),
    expiresAt: isoDate,
    passwordRequired: z.boolean(),
  })
  .meta({ id: 'PublicTransferHead' });

/** Whose downloads they are follows from the link's token (a recipient's own, or the shared one), never from the body. */
export const transferAccessBody = z.object({
  password: z.string().max(200).optional(),
});
export const transferAccessGrant = z.object({ grant: z.string(), expiresAt: isoDate });

/** The recipient page's content once the grant is verified: the whole tree at once. */
export const publicTransferContent = z
  .object({
    title: z.string(),
    message: z.string(),
    sender: z.string(),
    expiresAt: isoDate,
    size: z.number(),
    fileCount: z.number().int(),
    rootFolderId: z.uuid(),
    folders: z.array(transferFolder),
    files: z.array(
      transferFile.extend({
        /** The original, with Range support (a download manager may resume it). */
        downloadUrl: z.string(),
        /** Redirects to the waveform peaks (JSON, the storage's peaks format); null when there are none. */
        peaksUrl: z.string().nullable(),
        /** Redirects to the waveform picture the tile shows; null when there is none yet. */
        thumbnailUrl: z.string().nullable(),
        /** Redirects to something a browser can play; null when the file is not audio. */
        playUrl: z.string().nullable(),
      }),
    ),
    /** Streams every file as one ZIP with a checksums.sha256 file. */
    zipUrl: z.string(),
  })
  .meta({ id: 'PublicTransferContent' });
export type PublicTransferContent = z.infer<typeof publicTransferContent>;

/** "Request files": a link through which someone without an account uploads a transfer to its owner. */
export const fileRequest = z
  .object({
    id: z.uuid(),
    /** {site}/public/request?requestId={token} */
    link: z.string(),
    message: z.string(),
    /** Largest upload accepted in bytes; null for the owner's plan's transfer limit. */
    maxBytes: z.number().nullable(),
    createdAt: isoDate,
    /** Transfers received through it. */
    received: z.number().int(),
  })
  .meta({ id: 'FileRequest' });
export type FileRequest = z.infer<typeof fileRequest>;
export const createFileRequestBody = z.object({
  message: safeMessage(z.string().trim().max(5000)).default(''),
  maxBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().default(null),
});
export const fileRequestList = z.object({ items: z.array(fileRequest) });

export const publicFileRequestParams = z.object({ token: transferToken });
/** What the uploader sees: who asks, their message, and the size accepted. */
export const publicFileRequest = z.object({ ownerName: z.string(), message: z.string(), maxBytes: z.number() });
export const fileRequestUploadBody = z.object({
  /** The uploader's name and address, shown to the owner. */
  name: safeName(z.string().trim().max(100)).default(''),
  email: z.string().trim().max(254).default(''),
  message: safeMessage(z.string().trim().max(5000)).default(''),
  files: z.array(transferFileInput).max(5000),
});
/** The uploader's transfer (its files in request order) and the grant that lets them upload into it. */
export const fileRequestUpload = z.object({
  transferId: z.uuid(),
  files: z.array(
    z.object({ id: z.uuid(), versionId: z.uuid(), path: z.string(), fileName: z.string(), size: z.number() }),
  ),
  /** Carried as `u` on the upload calls below; valid for a day. */
  uploadGrant: z.string(),
});
export const uploadGrantQuery = z.object({ u: z.string().min(20).max(2000) });
export const publicRequestFileParams = z.object({ token: transferToken, transferId: z.uuid(), fileId: z.uuid() });
export const publicUploadParams = z.object({ id: z.uuid() });
export const publicUploadPartParams = z.object({
  id: z.uuid(),
  partNumber: z.coerce.number().int().min(1).max(10_000),
});
