import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDropboxServer } from './fake-dropbox-server';
import { LocalGoogleDriveServer } from './fake-google-drive-server';
import { LocalOAuthServer } from './oauth-server';
import { writeWav } from './wav';

/** Dropbox and Google Drive stand-ins: their OAuth servers and their APIs, on the tests' clock. */
export interface OAuthProviders {
  dropboxAuth: LocalOAuthServer;
  googleAuth: LocalOAuthServer;
  dropbox: LocalDropboxServer;
  google: LocalGoogleDriveServer;
}

/** Starts both providers; their users are `people` (consent is given as `dbx-alice` and `g-alice`). */
export async function startOAuthProviders(
  now: () => number,
  people: ConstructorParameters<typeof LocalDropboxServer>[1],
): Promise<OAuthProviders> {
  const dropboxAuth = await new LocalOAuthServer({
    clientId: 'dbx-app',
    clientSecret: 'dbx-secret',
    clientAuth: 'basic',
    now,
    // Two-minute access tokens: the refresh test moves the clock past them (user sessions last five).
    accessTtlSeconds: 120,
  }).start();
  const googleAuth = await new LocalOAuthServer({
    clientId: 'g-app.apps.googleusercontent.com',
    clientSecret: 'g-secret',
    clientAuth: 'body',
    now,
    accessTtlSeconds: 120,
    revokePath: '/revoke',
  }).start();
  dropboxAuth.consentAs = 'dbx-alice';
  googleAuth.consentAs = 'g-alice';
  const dropbox = await new LocalDropboxServer(dropboxAuth, people).start();
  const google = await new LocalGoogleDriveServer(googleAuth, people).start();
  return { dropboxAuth, googleAuth, dropbox, google };
}

/** The server's settings that point both connectors at the stand-ins. */
export function oauthConnectorEnv({
  dropboxAuth,
  googleAuth,
  dropbox,
  google,
}: OAuthProviders): Record<string, string> {
  return {
    CONNECTORS_ENABLED: 'dropbox,gdrive',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
    CONNECTORS_TIMEOUT_MS: '2000',
    CONNECTORS_DROPBOX_CLIENT_ID: 'dbx-app',
    CONNECTORS_DROPBOX_CLIENT_SECRET: 'dbx-secret',
    CONNECTORS_DROPBOX_AUTH_URL: `${dropboxAuth.url}/authorize`,
    CONNECTORS_DROPBOX_TOKEN_URL: `${dropboxAuth.url}/token`,
    CONNECTORS_DROPBOX_API_URL: dropbox.url,
    CONNECTORS_DROPBOX_CONTENT_URL: dropbox.url,
    CONNECTORS_GDRIVE_CLIENT_ID: 'g-app.apps.googleusercontent.com',
    CONNECTORS_GDRIVE_CLIENT_SECRET: 'g-secret',
    CONNECTORS_GDRIVE_AUTH_URL: `${googleAuth.url}/authorize`,
    CONNECTORS_GDRIVE_TOKEN_URL: `${googleAuth.url}/token`,
    CONNECTORS_GDRIVE_REVOKE_URL: `${googleAuth.url}/revoke`,
    CONNECTORS_GDRIVE_API_URL: google.url,
    CONNECTORS_GDRIVE_UPLOAD_URL: google.url,
  };
}

/**
 * The files the tests browse and import: a 1 MiB WAV (its bytes and SHA-256 returned) in both
 * accounts, shorter copies, a text file, an empty folder and a Google Doc.
 */
export async function seedProviderFiles({
  dropbox,
  google,
}: Pick<OAuthProviders, 'dropbox' | 'google'>): Promise<{ wav: Buffer; wavSha: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-oauth-'));
  const written = await writeWav(join(dir, 'take.wav'), 1024 * 1024);
  const wav = readFileSync(join(dir, 'take.wav'));
  rmSync(dir, { recursive: true, force: true });
  dropbox.put('/Mixes/Take 1.wav', wav);
  dropbox.put('/Mixes/notes.txt', Buffer.from('notes'));
  dropbox.put('/Mixes/Old/Take 0.wav', wav.subarray(0, 1000));
  dropbox.put('/Stems', null);
  google.put('/Sessions/Take 1.wav', wav);
  google.put('/Sessions/Rough.wav', wav.subarray(0, 1000));
  google.put('/Sessions/Lyrics', null, 'application/vnd.google-apps.document');
  google.put("/Sessions/Bob's take.wav", wav.subarray(0, 500));
  return { wav, wavSha: written.sha256 };
}
