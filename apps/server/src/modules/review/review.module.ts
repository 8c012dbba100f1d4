import type { CoreDeps, AppModule } from '../module';
import type { MediaService } from '../storage';
import type { ProjectsService } from '../storage';
import type { StoragePresenter } from '../storage';
import { DifferenceRepository } from './difference.repository';
import { DifferenceService } from './difference.service';
import { NotesRepository } from './notes.repository';
import { reviewJobs } from './review.jobs';
import { reviewRoutes } from './review.routes';
import { ReviewService } from './review.service';

export type ReviewModule = AppModule<{ review: ReviewService; difference: DifferenceService }>;

/**
 * The version screen besides comments: notes, streaming, spectrogram, what changed. Who is on a
 * review is presence on the realtime socket (scope `version:{id}` under `project:{id}`).
 */
export function createReviewModule(
  core: CoreDeps,
  deps: { projects: ProjectsService; media: MediaService; presenter: StoragePresenter },
): ReviewModule {
  const review = new ReviewService({
    policy: core.items,
    notes: new NotesRepository(core.db),
    presenter: deps.presenter,
    projects: deps.projects,
    media: deps.media,
    jobs: core.jobs,
    bus: core.bus,
    clock: core.clock,
    signTtlSeconds: core.config.signedUrlTtlSeconds,
  });
  const difference = new DifferenceService({
    policy: core.items,
    differences: new DifferenceRepository(core.db),
    media: deps.media,
    outbox: core.outbox,
    jobs: core.jobs,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    bus: core.bus,
  });
  return {
    name: 'review',
    routes: [(app) => app.register(reviewRoutes, { review, difference })],
    jobs: reviewJobs(difference, {
      unitOfWork: core.unitOfWork,
      outbox: core.outbox,
      clock: core.clock,
      faults: core.faults,
    }),
    services: { review, difference },
  };
}
