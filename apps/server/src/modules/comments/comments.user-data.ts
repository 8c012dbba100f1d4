import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { comments, projects, versions } from '../../db/schema';
import type { UserDataContribution } from '../user-data';

/** The comments and replies a user wrote, wherever they are, with what they were written on. */
export class CommentsUserDataRepository {
  constructor(private readonly db: Db) {}

  authoredBy(userId: string) {
    return this.db
      .select({
        id: comments.id,
        parentId: comments.parentId,
        type: comments.type,
        startTime: comments.startTime,
        endTime: comments.endTime,
        text: comments.text,
        createdAt: comments.createdAt,
        updatedAt: comments.updatedAt,
        projectId: projects.id,
        projectName: projects.name,
        versionNumber: versions.number,
        versionName: versions.name,
      })
      .from(comments)
      .innerJoin(versions, eq(versions.id, comments.versionId))
      .innerJoin(projects, eq(projects.id, versions.projectId))
      .where(eq(comments.userId, userId))
      .orderBy(asc(comments.createdAt));
  }
}

/** Comments go with their author's account by cascade; the archive holds every one they wrote. */
export function commentsUserData(repository: CommentsUserDataRepository): UserDataContribution {
  return {
    async export(userId, archive) {
      const rows = await repository.authoredBy(userId);
      archive.json(
        'comments.json',
        rows.map((r) => ({
          ...r,
          createdAt: r.createdAt.toISOString(),
          updatedAt: r.updatedAt.toISOString(),
        })),
      );
    },
  };
}
