import { ActionIcon, Menu } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCloudUpload, IconDots, IconDownload, IconNotes, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Version } from '@mixroom/contracts';
import { STORAGE_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { useConnectors } from '../../connectors/queries';
import { useDownloadVersion } from '../hooks/use-download';
import { useDeleteVersion, useRenameVersion } from '../queries';
import { NameDialog } from './name-dialog';
import { ProjectNotesDialog } from './project-notes-dialog';

/**
 * Edit Version, Notes, Delete and Download Version, each shown per the project's capabilities. Notes
 * is offered when the project's versions are given (the version screen has its own notes button).
 */
export function VersionMenu({
  version,
  canEdit,
  canDownload,
  onProjectDeleted,
  versions,
  singleFieldEditor = false,
  onSaveTo,
}: {
  version: Version;
  canEdit: boolean;
  canDownload: boolean;
  onProjectDeleted: () => void;
  versions?: Version[];
  /** On the version screen the rename is that screen's single-field editor: 350 px, 'This field is required'. */
  singleFieldEditor?: boolean;
  /** Opens the page's "Save to…" dialog (a linked account's folder); offered once an account is linked. */
  onSaveTo?: (version: Version) => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [notes, setNotes] = useState(false);
  const rename = useRenameVersion();
  const remove = useDeleteVersion();
  const download = useDownloadVersion();
  const linked = useConnectors().data?.linked ?? [];
  if (!canEdit && !canDownload && !versions) return null;

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete Version',
      children: `Delete version ${version.number} “${version.name}” and its file? This cannot be undone.`,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      // A promise, not mutate's callbacks: those are dropped when this menu unmounts first, and it
      // does when the deletion's realtime event removes the version's row before the answer arrives.
      onConfirm: () =>
        void remove.mutateAsync({ id: version.id }).then(
          ({ projectDeleted }) => {
            notify('success', 'Delete Version', `Version ${version.name} has been deleted!`);
            if (projectDeleted) onProjectDeleted();
          },
          () => notify('error', 'Delete Version Error', `An error occurred deleting ${version.name}!`),
        ),
    });

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions for version ${version.number}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {canEdit && (
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setRenaming(true)}>
              Edit Version
            </Menu.Item>
          )}
          {versions && (
            <Menu.Item leftSection={<IconNotes size={16} />} onClick={() => setNotes(true)}>
              Notes
            </Menu.Item>
          )}
          {canDownload && (
            <Menu.Item
              leftSection={<IconDownload size={16} />}
              disabled={version.status === 'uploading'}
              onClick={() => download.mutate(version)}
            >
              Download Version
            </Menu.Item>
          )}
          {canDownload && onSaveTo && linked.length > 0 && (
            <Menu.Item
              leftSection={<IconCloudUpload size={16} />}
              disabled={version.status === 'uploading'}
              onClick={() => onSaveTo(version)}
            >
              Save to…
            </Menu.Item>
          )}
          {canEdit && (
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete}>
              Delete
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <NameDialog
        opened={renaming}
        title="Edit Version"
        label="Version name"
        requiredMessage={singleFieldEditor ? STORAGE_MESSAGES.fieldRequired : STORAGE_MESSAGES.versionNameRequired}
        width={singleFieldEditor ? 350 : undefined}
        submitLabel="Save"
        initial={version.name}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => rename.mutateAsync({ id: version.id, name })}
      />
      {notes && versions && (
        <ProjectNotesDialog
          projectId={version.projectId}
          versions={versions}
          versionId={version.id}
          onClose={() => setNotes(false)}
        />
      )}
    </>
  );
}
