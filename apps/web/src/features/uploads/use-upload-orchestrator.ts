import { useEffect } from 'react';
import { api } from '../../lib/api-client';
import { storageApi } from '../storage/api';
import { transferScopeCalls } from '../transfers/upload-scope';
import { activitiesStore } from './activities-store';
import { pendingUploads } from './pending-uploads';
import { UploadOrchestrator, type TabClaims } from './upload-orchestrator';

const LOCK_PREFIX = 'mixroom-upload:';

/** Web Locks outlive nothing but their tab: a lock still held means an open tab runs that upload. */
function webLockClaims(): TabClaims | undefined {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return undefined;
  return {
    hold(print) {
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      void locks.request(`${LOCK_PREFIX}${print}`, () => held);
      return release;
    },
    async held() {
      const state = await locks.query();
      return new Set(
        (state.held ?? []).flatMap((lock) =>
          lock.name?.startsWith(LOCK_PREFIX) ? [lock.name.slice(LOCK_PREFIX.length)] : [],
        ),
      );
    },
  };
}

let orchestrator: UploadOrchestrator | null = null;

/** The tab's one orchestrator: every upload goes through it, whichever screen started it. */
export function uploadOrchestrator(): UploadOrchestrator {
  const claims = webLockClaims();
  orchestrator ??= new UploadOrchestrator({
    api,
    cancelOnServer: (versionId) => storageApi.cancelUpload(versionId),
    scopeCalls: transferScopeCalls,
    activities: activitiesStore,
    pending: pendingUploads,
    ...(claims ? { tabs: claims } : {}),
  });
  return orchestrator;
}

export function useUploadOrchestrator(): UploadOrchestrator {
  return uploadOrchestrator();
}

/** Offers to resume the uploads a closed tab left unfinished (once per page load); `onSettled` should be stable. */
export function useRestoreUploads(onSettled: () => void): void {
  useEffect(() => {
    void uploadOrchestrator().restore(onSettled);
  }, [onSettled]);
}
