import { Alert, Center, Loader, Overlay, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCloudUpload } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useInView } from '../lib/use-in-view';
import { useNavigate, useParams } from 'react-router';
import type { ListFilters, StorageItem } from '@mixroom/contracts';
import { folderCreationFailed, STORAGE_MESSAGES } from '@mixroom/shared';
import { ApiError } from '../lib/api-client';
import { notify } from '../lib/notify';
import { useTopic } from '../lib/realtime/realtime-provider';
import type { ItemRef } from '../features/storage/api';
import { ItemGrid } from '../features/storage/components/item-grid';
import { ToolsMenuItems, toolsTake } from '../features/tools/components/tools-entry';
import type { TileAction } from '../features/storage/components/item-tile';
import { NameDialog } from '../features/storage/components/name-dialog';
import { CloudBrowser } from '../features/connectors/components/cloud-browser';
import { useSaveFolderTo } from '../features/connectors/components/save-folder-to';
import { NewProjectWizard } from '../features/storage/components/new-project-wizard';
import { ProjectNotesDialog } from '../features/storage/components/project-notes-dialog';
import { MissingItem } from '../components/missing-item';
import { ProjectDialog } from './project-dialog';
import { SelectionBar } from '../features/storage/components/selection-bar';
import { SettingsDialog } from '../features/storage/components/settings-dialog';
import { ShareDialog } from '../features/sharing/components/share-dialog';
import { StorageBreadcrumbs } from '../features/storage/components/storage-breadcrumbs';
import { StorageToolbar } from '../features/storage/components/storage-toolbar';
import { useDownloadVersion, useDownloadZip } from '../features/storage/hooks/use-download';
import { useFileDrop } from '../features/storage/hooks/use-file-drop';
import { useSelection } from '../features/storage/hooks/use-selection';
import { useCreateFolder, useListing, useMoveItems, useTrashItems } from '../features/storage/queries';
import { useUploader } from '../features/uploads/use-uploader';
import { useActivities } from '../features/uploads/activities-store';
import { filesFromInput, type PickedFile } from '../features/uploads/walk-drop';

const refOf = (item: StorageItem): ItemRef => ({ kind: item.kind, id: item.id });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether the server may hand this item out: a project downloads its latest file, a folder as a ZIP. */
const downloadable = (item: StorageItem) =>
  item.capabilities.canDownload && (item.kind === 'group' || Boolean(item.latestVersion));

/** /groups and /groups/{id}; an address that cannot name a folder gets the not-found screen at once. */
export function GroupsPage() {
  const { groupId = null } = useParams();
  if (groupId !== null && !UUID.test(groupId)) return <MissingItem kind="folder" />;
  return <GroupsScreen groupId={groupId} />;
}

/** The storage area: breadcrumb, toolbar, selection, tiles, and the dialogs they open. */
function GroupsScreen({ groupId }: { groupId: string | null }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState<ListFilters>({ sort: 'alphabetical', owner: 'all', kind: 'all' });
  const listing = useListing(groupId, query);
  // Root-level changes arrive on the user's own topic, which the realtime provider follows.
  useTopic(groupId ? `group:${groupId}` : null);
  const pages = listing.data?.pages;
  const first = pages?.[0];
  const items = useMemo(() => (pages ?? []).flatMap((p) => p.items), [pages]);
  const more = useInView(() => listing.hasNextPage && !listing.isFetchingNextPage && void listing.fetchNextPage());
  const selection = useSelection(items.map((i) => i.id));
  const saveFolderTo = useSaveFolderTo();
  const [dialog, setDialog] = useState<'folder' | 'project' | null>(null);
  const [settingsItem, setSettingsItem] = useState<StorageItem | null>(null);
  const [projectId, setProjectId] = useState<string | null>(null);
  const [notesProjectId, setNotesProjectId] = useState<string | null>(null);
  const [shareTarget, setShareTarget] = useState<{ type: 'group' | 'project'; id: string; name: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const createFolder = useCreateFolder();
  const trash = useTrashItems();
  const move = useMoveItems();
  const download = useDownloadVersion();
  const downloadZip = useDownloadZip();
  const activities = useActivities();
  const zipRunning =
    downloadZip.isPending ||
    activities.some((a) => a.kind === 'download' && (a.state === 'Started' || a.state === 'In Progress'));
  const upload = useUploader();
  const canCreate = first?.capabilities.canCreate ?? false;
  const onFiles = useCallback((files: PickedFile[]) => void upload(files, groupId), [upload, groupId]);
  const dragging = useFileDrop(canCreate, onFiles);

  const confirmTrash = (refs: ItemRef[], label: string) =>
    modals.openConfirmModal({
      title: 'Delete',
      children: `Move ${label} to the trash? ${STORAGE_MESSAGES.trashNote}`,
      labels: { confirm: 'Move to trash', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => trash.mutate(refs, { onSuccess: () => selection.clear() }),
    });

  const onAction = (item: StorageItem, action: TileAction) => {
    if (action === 'open') return item.kind === 'group' ? void navigate(`/groups/${item.id}`) : setProjectId(item.id);
    if (action === 'settings') return setSettingsItem(item);
    if (action === 'notes') return setNotesProjectId(item.id);
    if (action === 'share') return setShareTarget({ type: item.kind, id: item.id, name: item.name });
    if (action === 'delete') return confirmTrash([refOf(item)], `“${item.name}”`);
    if (action === 'download') {
      if (item.kind === 'project' && item.latestVersion) download.mutate(item.latestVersion);
      else downloadZip.mutate([refOf(item)]);
    }
  };

  const onDropItems = (refs: ItemRef[], to: string | null) =>
    move.mutate(
      { items: refs, to },
      {
        onSuccess: () => selection.clear(),
        onError: (e) => notify('error', 'Move', e instanceof Error ? e.message : String(e)),
      },
    );

  if (listing.isError) {
    const error = listing.error;
    // A folder the user may not open: say so and go back to their groups.
    if (error instanceof ApiError && error.status === 403 && groupId) return <NotAuthorized message={error.message} />;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400) && groupId)
      return <MissingItem kind="folder" />;
    return (
      <Center mih="50vh">
        <Alert
          color="red"
          title={error instanceof ApiError && error.status === 403 ? 'No access' : 'Not available'}
          maw={480}
        >
          {error.message}
        </Alert>
      </Center>
    );
  }

  const selectedItems = items.filter((i) => selection.selected.has(i.id));
  const onlyFolder = selectedItems.length === 1 && selectedItems[0]?.kind === 'group' ? selectedItems[0] : null;
  const targetName = first?.group?.name ?? 'Home';
  return (
    <Stack gap="md" mih="calc(100vh - 120px)" onClick={() => selection.clear()}>
      <StorageBreadcrumbs crumbs={first?.breadcrumb ?? []} onDropItems={onDropItems} />
      <div onClick={(e) => e.stopPropagation()}>
        <StorageToolbar
          query={query}
          onQuery={setQuery}
          canGoBack={groupId !== null}
          canCreate={canCreate}
          targetName={targetName}
          onBack={() => void navigate(first?.group?.parentId ? `/groups/${first.group.parentId}` : '/groups')}
          onNewFolder={() => setDialog('folder')}
          onNewProject={() => setDialog('project')}
          onUploadFiles={() => fileInput.current?.click()}
          onUploadFolder={() => folderInput.current?.click()}
          onSearchPick={(hit) =>
            hit.kind === 'group'
              ? void navigate(`/groups/${hit.id}`)
              : (void navigate(hit.parentId ? `/groups/${hit.parentId}` : '/groups'), setProjectId(hit.id))
          }
        />
      </div>
      {listing.isPending ? (
        <Center py="xl">
          <Loader color="violet" />
        </Center>
      ) : items.length === 0 ? (
        <Center py={80}>
          <Stack align="center" gap="xs" maw={420} ta="center">
            <IconCloudUpload size={56} stroke={1.2} color="var(--mantine-color-violet-4)" />
            <Text c="dimmed">{STORAGE_MESSAGES.emptyState}</Text>
          </Stack>
        </Center>
      ) : (
        <>
          <ItemGrid
            items={items}
            selected={selection.selected}
            onSelect={selection.select}
            onAction={onAction}
            onDropItems={onDropItems}
            extraMenuItems={(item) =>
              item.kind === 'group' ? (
                saveFolderTo.menuItem(item)
              ) : item.latestVersion && toolsTake(item.latestVersion, item.capabilities.canDownload) ? (
                <ToolsMenuItems version={item.latestVersion} />
              ) : null
            }
          />
          {listing.hasNextPage && (
            <Center ref={more} py="md">
              <Loader size="sm" color="violet" />
            </Center>
          )}
        </>
      )}
      <SelectionBar
        count={selection.selected.size}
        onDelete={() => confirmTrash(selectedItems.map(refOf), `${selectedItems.length} item(s)`)}
        downloading={zipRunning}
        hint={onlyFolder ? `Double-click “${onlyFolder.name}” to open it. New and Upload add to ${targetName}.` : null}
        onDownload={
          selectedItems.length > 0 && selectedItems.every(downloadable)
            ? () => {
                // One project downloads as its file; anything more, or a folder, as one ZIP.
                const only = selectedItems.length === 1 ? selectedItems[0] : undefined;
                if (only?.kind === 'project' && only.latestVersion) download.mutate(only.latestVersion);
                else downloadZip.mutate(selectedItems.map(refOf));
              }
            : undefined
        }
        onClear={selection.clear}
        onSelectAll={selection.selectAll}
      />

      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        onChange={(e) => e.target.files && (onFiles(filesFromInput(e.target.files)), (e.target.value = ''))}
      />
      <input
        ref={(node) => {
          folderInput.current = node;
          node?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        onChange={(e) => e.target.files && (onFiles(filesFromInput(e.target.files)), (e.target.value = ''))}
      />
      <NameDialog
        opened={dialog === 'folder'}
        title="New Folder"
        label="Folder name"
        requiredMessage={STORAGE_MESSAGES.folderNameRequired}
        submitLabel="Create"
        onClose={() => setDialog(null)}
        onSubmit={(name) =>
          createFolder.mutateAsync({ name, parentId: groupId }).then(
            () => undefined,
            // A refused folder is reported and the dialog closes, as for any other failure to create.
            () => notify('error', 'Error', folderCreationFailed(name)),
          )
        }
      />
      <NewProjectWizard
        opened={dialog === 'project'}
        groupId={groupId}
        onClose={() => setDialog(null)}
        onCreated={setProjectId}
        filePicker={(picker) => <CloudBrowser {...picker} />}
      />
      <SettingsDialog item={settingsItem} onClose={() => setSettingsItem(null)} />
      <ShareDialog target={shareTarget} onClose={() => setShareTarget(null)} />
      {saveFolderTo.dialog}
      <ProjectDialog projectId={projectId} onClose={() => setProjectId(null)} />
      {notesProjectId && <ProjectNotesDialog projectId={notesProjectId} onClose={() => setNotesProjectId(null)} />}
      {dragging && (
        <Overlay fixed color="#1a1030" backgroundOpacity={0.75} blur={2} center zIndex={250}>
          <Stack align="center">
            <IconCloudUpload size={72} color="white" />
            <Text c="white" fw={700} size="xl">
              Drop to upload into {first?.group?.name ?? 'Home'}
            </Text>
          </Stack>
        </Overlay>
      )}
    </Stack>
  );
}

function NotAuthorized({ message }: { message: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    notify('error', 'Error', message);
    void navigate('/groups', { replace: true });
  }, [message, navigate]);
  return null;
}
