import type { Clock } from '../clock/clock';
import type { Drive } from './drive';
import type { DriveNetwork } from './drive-http';
import { S3Drive, type S3Credentials } from './s3-drive';
import { WebdavDrive, type WebdavCredentials } from './webdav-drive';

/** What a user lends the server to reach one account, by provider; sealed at rest. */
export type DriveCredentials = ({ kind: 'webdav' } & WebdavCredentials) | ({ kind: 's3' } & S3Credentials);

export type DriveKind = DriveCredentials['kind'];

/** Builds the driver for one linked account. Refuses a malformed or non-https address before any call. */
export function createDrive(credentials: DriveCredentials, network: DriveNetwork, clock: Clock): Drive {
  switch (credentials.kind) {
    case 'webdav':
      return new WebdavDrive(credentials, network);
    case 's3':
      return new S3Drive(credentials, network, clock);
  }
}
