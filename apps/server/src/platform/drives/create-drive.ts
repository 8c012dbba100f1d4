import type { Clock } from '../clock/clock';
import type { Drive, RevocableDrive } from './drive';
import { DriveError } from './drive-error';
import type { DriveNetwork } from './drive-http';
import { DropboxDrive } from './dropbox-drive';
import { GdriveDrive } from './gdrive-drive';
import { OAuthSession, type OAuthAppConfig, type OAuthTokens } from './oauth-session';
import { S3Drive, type S3Credentials } from './s3-drive';
import { WebdavDrive, type WebdavCredentials } from './webdav-drive';

/** What a user lends the server to reach one account, by provider; sealed at rest. */
export type DriveCredentials =
  | ({ kind: 'webdav' } & WebdavCredentials)
  | ({ kind: 's3' } & S3Credentials)
  | { kind: 'dropbox'; tokens: OAuthTokens }
  | { kind: 'gdrive'; tokens: OAuthTokens };

export type DriveKind = DriveCredentials['kind'];
export type OAuthKind = 'dropbox' | 'gdrive';

/** The operator's OAuth apps, and where a refreshed token pair is kept (the account's sealed row). */
export interface OAuthDriveOptions {
  apps: Record<OAuthKind, OAuthAppConfig | null>;
  persist: (tokens: OAuthTokens) => Promise<void>;
}

/** How each provider wants its client authenticated at the token endpoint. */
export const CLIENT_AUTH = { dropbox: 'basic', gdrive: 'body' } as const;

/** Builds the driver for one linked account. Refuses a malformed or non-https address before any call. */
export function createDrive(
  credentials: DriveCredentials,
  network: DriveNetwork,
  clock: Clock,
  oauth?: OAuthDriveOptions,
): Drive | RevocableDrive {
  switch (credentials.kind) {
    case 'webdav':
      return new WebdavDrive(credentials, network);
    case 's3':
      return new S3Drive(credentials, network, clock);
    case 'dropbox':
    case 'gdrive': {
      const app = oauth?.apps[credentials.kind];
      // The operator removed the app since the account was linked: a clear refusal, not a crash.
      if (!app || !oauth)
        throw new DriveError(422, 'CONNECTOR_DISABLED', 'This kind of storage is not enabled on this server.');
      const session = new OAuthSession(
        app,
        CLIENT_AUTH[credentials.kind],
        network,
        clock,
        credentials.tokens,
        oauth.persist,
      );
      return credentials.kind === 'dropbox'
        ? new DropboxDrive(app, session, network)
        : new GdriveDrive(app, session, network);
    }
  }
}

export function isRevocable(drive: Drive): drive is RevocableDrive {
  return typeof (drive as Partial<RevocableDrive>).revoke === 'function';
}
