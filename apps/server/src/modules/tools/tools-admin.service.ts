import type { z } from 'zod';
import type { adminTask, adminTaskList } from '@mixroom/contracts';
import type { TaskStatus } from '@mixroom/shared';
import { assertAdmin } from '../../access/admin.policy';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import { taskChanged, type ToolsDeps } from './tools.deps';
import { presentTask } from './tools.presenter';
import type { TaskRecord } from './tools.repository';

type AdminTask = z.infer<typeof adminTask>;

const STATUSES: Record<'active' | 'failed' | 'all', TaskStatus[]> = {
  active: ['PENDING', 'RUNNING'],
  failed: ['FAILED'],
  all: ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'],
};

export const CANCELLED_MESSAGE = 'Cancelled by an administrator.';

function present(record: TaskRecord, email: string | null): AdminTask {
  const task = presentTask(record);
  return {
    id: task.id,
    name: task.name,
    status: task.status,
    userId: record.task.userId,
    userEmail: email,
    creationDate: task.creationDate,
    lastUpdate: task.lastUpdate,
    sessions: task.sessions,
  };
}

/** The task queue for administrators: what runs, waits or failed, and cancelling a task. */
export class ToolsAdminService {
  constructor(private readonly deps: ToolsDeps) {}

  async queue(
    actor: Actor | null,
    query: { status: 'active' | 'failed' | 'all'; limit: number },
  ): Promise<z.infer<typeof adminTaskList>> {
    assertAdmin(actor);
    const rows = await this.deps.repository.queue(STATUSES[query.status], query.limit);
    return { items: rows.map((row) => present(row, row.email)) };
  }

  /**
   * Cancels a pending or running task: its open sessions fail with the reason, so a queued stage
   * does nothing and a running one stops at its next progress report. Nothing was charged.
   */
  async cancel(actor: Actor | null, taskId: string): Promise<AdminTask> {
    assertAdmin(actor);
    const { repository, clock } = this.deps;
    const record = await this.deps.unitOfWork(async (tx) => {
      const found = await repository.find(taskId, tx);
      if (!found) throw DomainError.notFound('No such task.');
      if (found.task.status !== 'PENDING' && found.task.status !== 'RUNNING')
        throw DomainError.conflict('Only a pending or running task can be cancelled.', 'TASK_NOT_ACTIVE');
      await repository.failOpenSessions(tx, taskId, CANCELLED_MESSAGE, clock.now());
      const after = await repository.restate(tx, taskId, clock.now());
      if (after) await this.deps.outbox.event(tx, taskChanged(after.task, 'failed', null));
      return after!;
    });
    this.deps.outbox.kick();
    return present(record, null);
  }
}
