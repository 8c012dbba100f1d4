import type { VersionRow } from '../projects/versions.repository';
import { versionBlobKey } from '../../../platform/blob/blob-keys';

/** The 409 answer while a version's lossy preview is still being made. */
export const PREVIEW_PREPARING_MESSAGE = 'The preview is being prepared.';

/**
 * The blob a player may stream. With downloads allowed: the original, or its browser-playable
 * preview when browsers can't play the original. With downloads off: only the lossy preview, so
 * a viewer never receives the original's bytes by pressing play; null until it is made (answer
 * 409 with PREVIEW_PREPARING_MESSAGE). Waveform peaks and thumbnails give no audio away and need
 * no such rule.
 */
export function playbackKey(
  version: Pick<VersionRow, 'blobKey' | 'previewKey' | 'lossyPreviewKey'>,
  canDownload: boolean,
): string | null {
  if (canDownload) return version.previewKey ?? version.blobKey;
  return version.lossyPreviewKey;
}

/** Where a version's lossy preview is kept, beside its original. */
export const lossyPreviewKeyOf = (version: Pick<VersionRow, 'projectId' | 'id'>) =>
  versionBlobKey(version.projectId, version.id, 'preview-lossy.m4a');
