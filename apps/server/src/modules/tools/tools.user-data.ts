import type { UserDataContribution } from '../user-data';
import { toolsUserPrefix } from './tools.deps';
import { outputFileName, outputsOf, presentTask } from './tools.presenter';
import type { ToolsRepository } from './tools.repository';

/**
 * The tools' part of a user's data: the task list (`tools/tasks.json`) and each task's downloadable
 * results; erasure removes every file under tools/{userId}/ and the rows.
 */
export function toolsUserData(repository: ToolsRepository): UserDataContribution {
  return {
    async export(userId, archive) {
      const records = (await repository.allOf(userId)).filter((r) => r.task.flag === 'NONE');
      archive.json(
        'tools/tasks.json',
        records.map((r) => presentTask(r)),
      );
      for (const record of records)
        for (const output of outputsOf(record))
          archive.blob(
            `tools/${record.task.id}/${outputFileName(record.task, output.kind)}`,
            output.key,
            output.size,
            record.task.updatedAt,
          );
    },
    blobPrefixes: async (userId) => [toolsUserPrefix(userId)],
    erase: (userId, tx) => repository.eraseUser(tx, userId),
  };
}
