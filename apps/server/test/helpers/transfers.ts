import { openAsBlob } from 'node:fs';
import type { CreateTransferBody, TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import { uploadFile } from '../../../web/src/features/uploads/upload-engine';
import { storageClient } from './storage-client';

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
