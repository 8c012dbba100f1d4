import { FILE_KIND_FILTERS, folderTreeProblem, LIMITS, nameProblem, STORAGE_MESSAGES } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeFileName, safeName } from './common';

/** An item name: trimmed, 1–50 characters, with the spec's required-text for the dialog at hand. */
export const itemName = (required: string) =>
  safeName(
    z
      .string({ message: required })
      .trim()
      .min(1, { message: required })
      .max(LIMITS.nameMax, { message: STORAGE_MESSAGES.nameTooLong }),
  );

export const capabilities = z.object({
  canView: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canCreate: z.boolean(),
  canDownload: z.boolean(),
  canShare: z.boolean(),
  canManageUsers: z.boolean(),
});
export type ItemCapabilities = z.infer<typeof capabilities>;

export const personRef = z.object({ id: z.uuid(), displayName: z.string(), photoUrl: z.string().nullable() });
export const flag = z.enum(['NONE', 'CREATE', 'DELETE', 'DELETING']);
export const roleTag = z.enum(['owner', 'editor', 'viewer']);

export const mediaInfo = z.object({
  format: z.string(),
  codec: z.string(),
  channels: z.number(),
  sampleRate: z.number(),
  bitDepth: z.number().nullable(),
  bitRate: z.number().nullable(),
});
/**
 * EBU R128 measurements of a version. One that doesn't exist is null, never a made-up number: a
 * digitally silent file has no true peak (−∞) and nothing above the gate to integrate.
 */
export const loudnessInfo = z.object({
  integrated: z.number().nullable(),
  truePeak: z.number().nullable(),
  range: z.number().nullable(),
});

export const versionApproval = z.enum(['none', 'needs_changes', 'approved']);
export type VersionApproval = z.infer<typeof versionApproval>;

export const version = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    number: z.number().int(),
    name: z.string(),
    fileName: z.string(),
    fileExtension: z.string(),
    fileSize: z.number(),
    status: z.enum(['uploading', 'processing', 'ready', 'corrupt']),
    progress: z.number(),
    error: z.string().nullable(),
    /** A note about a file that plays but is damaged (cut short, undecodable parts), for everyone who sees it. */
    warning: z.string().nullable().optional(),
    durationSeconds: z.number().nullable(),
    media: mediaInfo.nullable(),
    loudness: loudnessInfo.nullable(),
    hasThumbnail: z.boolean(),
    /** Signed, and the same all day for one version, so browsers cache it: tiles show it with a plain <img>. */
    thumbnailUrl: z.string().nullable(),
    /** The review's verdict, set by the publisher or an editor. */
    approval: versionApproval,
    createdAt: isoDate,
  })
  .meta({ id: 'Version' });
export const setApprovalBody = z.object({ approval: versionApproval });
export type Version = z.infer<typeof version>;

const itemBase = {
  id: z.uuid(),
  name: z.string(),
  color: z.string().nullable(),
  flag,
  createdAt: isoDate,
  updatedAt: isoDate,
  publisher: personRef,
  tag: roleTag,
  capabilities,
  /** Who else was given the item or a folder above it (at most 8), for the avatars beside the publisher. */
  collaborators: z.array(personRef).optional(),
};

export const groupItem = z
  .object({ kind: z.literal('group'), parentId: z.uuid().nullable(), ...itemBase })
  .meta({ id: 'GroupItem' });
export type GroupItem = z.infer<typeof groupItem>;

export const projectItem = z
  .object({
    kind: z.literal('project'),
    type: z.enum(['AUDIO', 'ANY']),
    groupId: z.uuid().nullable(),
    size: z.number(),
    latestExtension: z.string().nullable(),
    enableDownload: z.boolean(),
    versionCount: z.number().int(),
    latestVersion: version.nullable(),
    ...itemBase,
  })
  .meta({ id: 'ProjectItem' });
export type ProjectItem = z.infer<typeof projectItem>;

export const storageItem = z.discriminatedUnion('kind', [groupItem, projectItem]);
export type StorageItem = z.infer<typeof storageItem>;

export const crumb = z.object({ id: z.uuid(), name: z.string() });
export type Crumb = z.infer<typeof crumb>;

export const listQuery = z.object({
  sort: z.enum(['alphabetical', 'newest']).default('alphabetical'),
  owner: z.enum(['all', 'owned', 'joined']).default('all'),
  kind: z.enum(FILE_KIND_FILTERS).default('all'),
  /** Projects whose latest version carries this verdict (folders are always listed). */
  approval: z.enum(['all', ...versionApproval.options]).optional(),
  /** Folders come first, then projects; a page holds up to `limit` items from `offset` on. */
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ListQuery = z.infer<typeof listQuery>;
export type ListFilters = Omit<ListQuery, 'offset' | 'limit'>;

/** A folder's content: the folder (null at root), the breadcrumb from the root, and its items. */
export const listing = z
  .object({
    group: groupItem.nullable(),
    breadcrumb: z.array(crumb),
    capabilities,
    items: z.array(storageItem),
    /** Items in the folder that match the filters, over all pages. */
    total: z.number().int(),
    nextOffset: z.number().int().nullable(),
  })
  .meta({ id: 'Listing' });
export type Listing = z.infer<typeof listing>;

export const createGroupBody = z.object({
  name: itemName(STORAGE_MESSAGES.folderNameRequired),
  parentId: z.uuid().nullable(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Pick a colour.' })
    .nullable()
    .optional(),
});
export const updateGroupBody = z.object({
  name: itemName(STORAGE_MESSAGES.groupNameRequired).optional(),
  parentId: z.uuid().nullable().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Pick a colour.' })
    .nullable()
    .optional(),
});

export const createProjectBody = z.object({
  name: itemName(STORAGE_MESSAGES.projectNameRequired),
  groupId: z.uuid().nullable(),
});
export const updateProjectBody = z.object({
  name: itemName(STORAGE_MESSAGES.projectNameRequired).optional(),
  groupId: z.uuid().nullable().optional(),
  enableDownload: z.boolean().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Pick a colour.' })
    .nullable()
    .optional(),
});

const fileName = safeFileName(
  z
    .string()
    .min(1, { message: 'The file has no name.' })
    .max(255, { message: 'File names are limited to 255 characters.' }),
);
const fileSize = z.number().int().min(1, { message: STORAGE_MESSAGES.emptyFile }).max(Number.MAX_SAFE_INTEGER);

export const startVersionBody = z.object({
  name: itemName(STORAGE_MESSAGES.versionNameRequired),
  fileName,
  size: fileSize,
});
export const uploadFileBody = z.object({ groupId: z.uuid().nullable(), fileName, size: fileSize });

export const uploadTicket = z
  .object({
    upload: z.object({ id: z.uuid(), size: z.number(), partSize: z.number(), partCount: z.number() }),
    version,
    project: projectItem,
  })
  .meta({ id: 'UploadTicket' });
export type UploadTicket = z.infer<typeof uploadTicket>;

/**
 * Relative folder paths of a dropped tree ("Live/Drums"), created below a group if missing: as deep
 * and as many folders as one request may create (checked before any folder is looked up).
 */
export const ensureFoldersBody = z.object({
  parentId: z.uuid().nullable(),
  paths: z
    .array(z.string().min(1).max(1000))
    .max(2000)
    .superRefine((paths, context) => {
      const problem = folderTreeProblem(paths.map((path) => path.split('/')));
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .refine(
      (paths) =>
        paths.every((p) =>
          p.split('/').every((segment) => segment.trim().length > 0 && segment.length <= LIMITS.nameMax),
        ),
      {
        message: 'Folder names must be 1 to 50 characters.',
      },
    )
    .refine((paths) => paths.every((p) => p.split('/').every((segment) => nameProblem(segment) === null)), {
      message:
        'Folder names cannot contain control, text-direction or invisible characters, or be made of dots and spaces only.',
    }),
});
export const ensureFoldersResponse = z.object({ folders: z.record(z.string(), z.uuid()) });

export const signedUrl = z.object({ url: z.string(), expiresAt: isoDate });

/** Folders the user can put things in, each with its full path, for a folder picker. */
export const folderOptions = z
  .object({ folders: z.array(z.object({ id: z.uuid(), parentId: z.uuid().nullable(), path: z.string() })) })
  .meta({ id: 'FolderOptions' });
export type FolderOptions = z.infer<typeof folderOptions>;

/** Peaks computed at upload: 0–255 maxima per bin (base64) at several resolutions. */
export const peaksFile = z.object({
  version: z.literal(1),
  sampleRate: z.number(),
  durationSeconds: z.number(),
  levels: z.array(z.object({ samplesPerPeak: z.number(), data: z.string() })),
});
export type PeaksFile = z.infer<typeof peaksFile>;

export const storageUsage = z.object({ usedBytes: z.number(), limitBytes: z.number() }).meta({ id: 'StorageUsage' });

export const searchQuery = z.object({
  q: z.string().trim().min(1).max(100),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const searchResult = z.object({
  items: z.array(
    z.object({
      kind: z.enum(['group', 'project']),
      id: z.uuid(),
      name: z.string(),
      parentId: z.uuid().nullable(),
      parentName: z.string().nullable(),
    }),
  ),
});

export const trashQuery = z.object({ sort: z.enum(['newest', 'alphabetical']).default('newest') });
export const itemRef = z.object({ kind: z.enum(['group', 'project']), id: z.uuid() });
export const itemRefs = z.object({ items: z.array(itemRef).min(1).max(1000) });
