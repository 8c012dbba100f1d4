import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';

describe('configuration', () => {
  it('refuses to start with an OAuth kind enabled but no app for it', () => {
    expect(() => loadConfig({ DATA_DIR: tmpdir(), CONNECTORS_ENABLED: 'webdav,gdrive' })).toThrow(
      /CONNECTORS_GDRIVE_CLIENT_ID and CONNECTORS_GDRIVE_CLIENT_SECRET are required/,
    );
    const config = loadConfig({
      DATA_DIR: tmpdir(),
      CONNECTORS_ENABLED: 'dropbox',
      CONNECTORS_DROPBOX_CLIENT_ID: 'key',
      CONNECTORS_DROPBOX_CLIENT_SECRET: 'secret',
    });
    expect(config.connectors.oauth.dropbox).toMatchObject({
      authUrl: 'https://www.dropbox.com/oauth2/authorize',
      revokeUrl: 'https://api.dropboxapi.com/2/auth/token/revoke',
      contentUrl: 'https://content.dropboxapi.com',
    });
    expect(config.connectors.oauth.gdrive).toBeNull();
  });
});
