// Business constants, shared by server and web.
export const LIMITS = {
  nameMax: 50,
  singleFieldMax: 110,
  usersPerGroup: 10,
  trashRetentionDays: 30,
  searchDebounceMs: 500,
  toastTimeoutMs: 5000,
  tokenCheckIntervalMs: 10_000,
  mobileBreakpointPx: 1000,
  adminPageSizes: [25, 50, 100],
  passwordMin: 8,
  passwordMax: 200,
  displayNameMax: 80,
  emailMax: 254,
  passwordResetTtlMinutes: 60,
} as const;

export const APP_VERSION = '0.1.0';
