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
  /** A confirmation link for a new e-mail address works this long. */
  emailChangeTtlMinutes: 24 * 60,
  /** Profile pictures: the largest upload accepted, and the square the server stores. */
  avatarMaxBytes: 5 * 1024 * 1024,
  avatarSizePx: 256,
  /** A "download my data" archive can be fetched this long after it was made. */
  dataExportTtlDays: 7,
} as const;

export const APP_VERSION = '0.1.0';

/** The instants a request may name (an end date, an expiry): later than this is no date a user means. */
export const DATE_BOUNDS = {
  min: '2000-01-01T00:00:00.000Z',
  max: '2200-12-31T23:59:59.999Z',
  message: 'Choose a date between the years 2000 and 2200.',
} as const;
