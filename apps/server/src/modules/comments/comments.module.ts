import { CommentsUserDataRepository, commentsUserData } from './comments.user-data';
import type { CoreDeps, AppModule } from '../module';
import { CommentsRepository } from './comments.repository';
import { commentsRoutes } from './comments.routes';
import { CommentsService } from './comments.service';

export type CommentsModule = AppModule<{ comments: CommentsService }>;

/** Timed comments and replies on versions. */
export function createCommentsModule(core: CoreDeps): CommentsModule {
  const comments = new CommentsService({
    comments: new CommentsRepository(core.db, core.clock),
    policy: core.items,
    bus: core.bus,
    clock: core.clock,
  });
  return {
    name: 'comments',
    routes: [(app) => app.register(commentsRoutes, { comments })],
    jobs: [],
    services: { comments },
    userData: commentsUserData(new CommentsUserDataRepository(core.db)),
  };
}
