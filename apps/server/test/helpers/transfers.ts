import { openAsBlob } from 'node:fs';
import type { CreateTransferBody, TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import { uploadFile } from '../../../web/src/features/uploads/upload-engine';
import type { TestClock } from '../../src/platform/clock/clock';
import { call } from './api';
import { startClockedServer } from './clocked-server';
import { signInThroughOidc } from './oidc-flow';
import { startSmtp } from './smtp';
import { storageClient } from './storage-client';
import type { TestServer } from './test-server';

/** A valid transfer form: link mode, 7 days, one small file; tests override what they check. */
export const transferForm = (overrides: Partial<CreateTransferBody> = {}): CreateTransferBody => ({
  name: 'Mix session',
  message: 'Here are the stems.',
  mode: 'link',
  recipients: [],
  durationDays: 7,
  password: null,
  files: [{ path: '', fileName: 'a.wav', size: 1000 }],
  ...overrides,
});

/** Creates a transfer and uploads real files through the web's upload engine; returns it once sent. */
export async function sendTransfer(
  baseUrl: string,
  token: string,
  body: CreateTransferBody,
  paths: string[],
): Promise<TransferDetail> {
  const client = storageClient(baseUrl, token);
  const created = await client.api<{ transfer: TransferDetail }>('/api/transfers', { method: 'POST', body });
  for (const [i, file] of created.transfer.files.entries()) {
    const base = `/api/transfers/${created.transfer.id}/files/${file.id}`;
    const ticket = await client.api<TransferUploadTicket>(`${base}/upload`, { method: 'POST' });
    await uploadFile({
      api: client.api,
      ticket,
      file: await openAsBlob(paths[i]!),
      complete: (signal) => client.api<Version>(`${base}/complete`, { method: 'POST', signal }),
    });
  }
  return client.api<TransferDetail>(`/api/transfers/${created.transfer.id}`);
}

/** The accounts of the transfer tests: Fran on Free, Paula on Studio (granted by the admin), Otto a stranger. */
export interface TransferWorld {
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  server: TestServer & { clock: TestClock };
  /** The administrator (the first account). */
  admin: string;
  free: string;
  paid: string;
  other: string;
  paidId: string;
  close(): Promise<void>;
}

/** A clocked server that mails through a real SMTP peer, with the three accounts signed in. */
export async function startTransferWorld(): Promise<TransferWorld> {
  const smtp = await startSmtp();
  const server = await startClockedServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Mixroom <mixroom@transfers.test>',
    TRUST_PROXY: 'true',
  });
  const signIn = async (email: string, password: string, displayName?: string) =>
    (await signInThroughOidc(server.url, { email, password, ...(displayName ? { displayName } : {}) })).access_token;
  const admin = await signIn('admin@transfers.test', 'admin-password-long');
  const free = await signIn('fran@transfers.test', 'fran-password-long');
  const paid = await signIn('paula@transfers.test', 'paula-password-long', 'Paula');
  const other = await signIn('otto@transfers.test', 'otto-password-long');
  const paidId = ((await call(server.url, '/api/me', { token: paid })).body as { id: string }).id;
  const grant = await call(server.url, `/api/admin/users/${paidId}/plans`, {
    method: 'POST',
    token: admin,
    body: { sku: 'STUDIO' },
  });
  if (grant.status !== 201) throw new Error(`granting Studio answered ${grant.status}`);
  return {
    smtp,
    server,
    admin,
    free,
    paid,
    other,
    paidId,
    close: async () => {
      await server.close();
      await smtp.stop();
    },
  };
}
