// User-facing texts, word for word as users know them (obvious typos fixed). One place so the
// server's errors and the web's toasts never drift apart.
export const MESSAGES = {
  genericErrorTitle: 'Oops',
  genericError: 'Something went wrong, please try again later or contact support.',
  serviceUnavailable: 'Mixroom cannot reach its database right now. Please try again in a moment.',
  sessionExpired: 'Session expired, please sign in again.',
  signOutConfirm: 'Are you sure you want to sign-out?',
  unauthorized: 'You must be signed in to do that.',
  forbidden: 'You are not allowed to do that.',
  notFound: 'Not found.',
  invalidCredentials: 'The e-mail or password is not correct.',
  accountDisabled:
    'This account has been disabled by an administrator. Contact the administrator of this server to use it again.',
  emailTaken: 'An account with this e-mail already exists.',
  passwordResetSent: 'If an account exists for this e-mail, a reset link is on its way.',
  passwordResetInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  passwordChanged: 'Your password has been changed. You can sign in now.',
  storageLimit:
    'You have reached your storage limit, please purchase a plan that grants you more data. Go to the settings panel for more information.',
  downloadFailed: 'The download could not start.',
} as const;

/** Texts of the storage area. */
export const STORAGE_MESSAGES = {
  folderNameRequired: 'A name is required',
  groupNameRequired: 'A folder name is required',
  projectNameRequired: 'A project name is required',
  versionNameRequired: 'A version name is required',
  nameTooLong: 'Use at most 50 characters.',
  emptyState: "Drag your files and folders here or use the 'New' button to upload",
  moveIntoItself: 'A folder cannot be moved into itself or one of its sub-folders.',
  emptyFile: 'This file is empty.',
  uploadAborted: 'Upload aborted',
  groupSettingsUpdated: 'Group Settings Updated!',
  groupSettingsFailed: 'Something went wrong updating your settings. Please try again later or contact support.',
  projectSettingsUpdated: 'Project Settings Updated!',
  trashNote: 'Items in trash will be automatically deleted after 30 days.',
  notInTrash: 'Only items in the trash can be deleted for good.',
  inTrash: 'This item is in the trash.',
  selectOneAudioFile: 'Please select one audio file.',
  versionNameRequiredMessage: 'A version name is required.',
  /** For files picked from a connected drive, which a project references instead of copying. */
  projectWithFileExists: 'A project with this file already exists. Please copy this file and use the copy instead.',
  fileRetrievalFailed: 'An error occurred retrieving the file',
  fieldRequired: 'This field is required',
} as const;

export const folderCreationFailed = (name: string) => `An error occurred creating folder: ${name}`;
export const projectDeleted = (name: string) => `Project ${name} has been deleted!`;
export const projectDeleteFailed = (name: string) => `An error occurred deleting ${name}!`;
/** The Join Request dialog's text, also shown to a signed-out invitee before signing in. */
export const invitedTo = (type: 'group' | 'project', name: string) => `You have been invited to the ${type}: ${name}`;

export const extensionNotAllowed = (allowed: string[]) =>
  `File extension is not supported for this version, please use ${allowed.map((e) => `.${e}`).join(', ')}`;
