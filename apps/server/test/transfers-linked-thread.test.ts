import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicTransferContent, TransferDetail } from '@mixroom/contracts';
import { fileGetsRun } from '../src/platform/drives/file-get-threads';
import { call } from './helpers/api';
import { userWithLinkedWebdav } from './helpers/connector-steps';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { writeWav } from './helpers/wav';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/**
 * A transfer's linked file where Mixroom keeps its files on disk: the provider's GET runs on a
 * thread of its own straight into the upload's file (as a connector import does), and the
 * recipient downloads the same bytes. (transfers-linked.test.ts covers the S3 store, which streams.)
 */
let server: TestServer;
let dav: TestWebdav;
let token: string;
let connectorId: string;

beforeAll(async () => {
  [server, dav] = await Promise.all([
    startTestServer({ CONNECTORS_ENABLED: 'webdav', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' }),
    startWebdav(),
  ]);
  ({ token, connectorId } = await userWithLinkedWebdav(server.url, 'ana@thread.test', dav));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dav?.stop();
});

describe('a linked file sent with a transfer, on the disk store', () => {
  it('is copied by the GET thread into its upload, and the recipient gets the same bytes', async () => {
    mkdirSync(join(dav.directory, 'Mixes'));
    const source = join(dav.directory, 'Mixes', 'final.wav');
    const { size, sha256 } = await writeWav(source, 6 * 1024 * 1024);
    const before = fileGetsRun();
    const created = await call(server.url, '/api/transfers', {
      method: 'POST',
      token,
      body: {
        name: 'Thread mix',
        message: 'The final mix.',
        mode: 'link',
        recipients: [],
        durationDays: 7,
        password: null,
        files: [],
        linked: [{ connectorId, path: '/Mixes/final.wav' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transfer = (created.body as { transfer: TransferDetail }).transfer;
    const sent = await waitFor(
      async () => {
        const now = (await call(server.url, `/api/transfers/${transfer.id}`, { token }))
          .body as unknown as TransferDetail;
        return now.status === 'available' ? now : null;
      },
      { what: 'the transfer to be sent', timeoutMs: 60_000 },
    );
    expect(sent.files).toEqual([expect.objectContaining({ fileName: 'final.wav', size, storedPercent: 100 })]);
    // The bytes came by a file-get thread, not through the ordinary client.
    expect(fileGetsRun()).toBeGreaterThan(before);

    const publicToken = new URL(sent.link).searchParams.get('transferId')!;
    const access = await call(server.url, `/api/public/transfers/${publicToken}/access`, { method: 'POST', body: {} });
    expect(access.status).toBe(200);
    const grant = encodeURIComponent(access.body.grant as string);
    const content = (await call(server.url, `/api/public/transfers/${publicToken}/content?g=${grant}`))
      .body as unknown as PublicTransferContent;
    const response = await fetch(`${server.url}${content.files[0]!.downloadUrl}`);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    expect(bytes.equals(readFileSync(source))).toBe(true);
  });
});
