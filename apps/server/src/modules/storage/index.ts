// What other modules may use of the storage module (lint refuses deeper imports): its services'
// types, the media jobs others queue for versions they make, the presenters of a version, and the
// one path by which a completed upload of any area becomes a version.
export type { MediaService } from './media/media.service';
export type { ProjectsService } from './projects/projects.service';
export type { AttachmentsService } from './projects/attachments.service';
export type { CatalogService } from './catalog.service';
export {
  completeVersionUpload,
  type VersionArea,
  type VersionCompletion,
  type VersionCompletionDeps,
  type VersionJob,
} from './projects/version-completion';
export { safeName, uniquePath, type FolderArchive, type ZipEntry, type ZipService } from './downloads/zip.service';
export { presentVersion, type StoragePresenter } from './storage.presenter';
export { playbackKey } from './media/playback';
export { processVersionJob, renderSpectrogramJob } from './media/media.jobs';
