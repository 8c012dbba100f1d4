import type { ScopeCalls } from '../uploads/upload-orchestrator';
import { transfersApi } from './api';

const PREFIX = 'transfer:';

/** The upload orchestrator's name for the place of one transfer file. */
export const transferUploadScope = (transferId: string, fileId: string) => `${PREFIX}${transferId}:${fileId}`;

/**
 * A transfer's file is finished and cancelled through the transfer (the transfer goes out once its
 * last file is in), also when its upload is resumed after a reload.
 */
export function transferScopeCalls(scope: string): ScopeCalls {
  if (!scope.startsWith(PREFIX)) return {};
  const [transferId = '', fileId = ''] = scope.slice(PREFIX.length).split(':');
  return {
    complete: (_versionId, signal) => transfersApi.completeFile(transferId, fileId, signal),
    cancel: () => transfersApi.cancelFile(transferId, fileId),
  };
}
