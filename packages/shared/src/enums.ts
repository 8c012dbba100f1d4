// Enumerations of the product, kept as string unions so they survive JSON unchanged.
export const ITEM_FLAGS = ['NONE', 'CREATE', 'DELETE', 'DELETING'] as const;
export type ItemFlag = (typeof ITEM_FLAGS)[number];

export const PERMISSIONS = ['VIEWER', 'EDITOR'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PROJECT_TYPES = ['ANY', 'AUDIO'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
