import { modals } from '@mantine/modals';
import { TOOLS_MESSAGES } from '@mixroom/shared';
import { startBrowserDownload } from '../../../lib/download';
import { notify } from '../../../lib/notify';
import { toolsApi } from '../api';
import { useDeleteTask } from '../queries';
import type { Task } from '../tools-rules';

const failedDownload = () => notify('error', 'Download', TOOLS_MESSAGES.downloadFailed);

/** Download (every output, or one) under the spec's names, and Delete with its confirmation. */
export function useTaskActions() {
  const remove = useDeleteTask();

  const download = async (task: Task, only?: Task['outputs'][number]['kind']) => {
    try {
      const files = (await toolsApi.downloads(task.id)).filter((f) => !only || f.kind === only);
      if (files.length === 0) return failedDownload();
      // One after another: browsers hold back a burst of downloads started at the same instant.
      files.forEach((file, i) => setTimeout(() => startBrowserDownload(file.url, failedDownload), i * 400));
    } catch {
      failedDownload();
    }
  };

  const confirmDelete = (task: Task) =>
    modals.openConfirmModal({
      title: 'Delete task',
      centered: true,
      children: `Delete “${task.name}” and its files? This cannot be undone.`,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(task.id, {
          onSuccess: () => notify('success', 'Delete task', TOOLS_MESSAGES.deleted),
          onError: () => notify('error', 'Delete task', TOOLS_MESSAGES.deleteFailed),
        }),
    });

  /** Back to the library: as attachments of the input version's project, or as projects in its folder. */
  const save = async (task: Task, as: 'attachments' | 'projects') => {
    try {
      const saved = await toolsApi.save(task.id, as);
      const count = saved.attachmentIds.length + saved.projectIds.length;
      notify(
        'success',
        'Saved to the library',
        as === 'attachments'
          ? `${count} ${count === 1 ? 'file' : 'files'} added as attachments of the version's project.`
          : `${count} new ${count === 1 ? 'project' : 'projects'} beside the version.`,
      );
    } catch (error) {
      notify(
        'error',
        'Saved to the library',
        error instanceof Error ? error.message : 'The results could not be saved.',
      );
    }
  };

  return { download, confirmDelete, save };
}
