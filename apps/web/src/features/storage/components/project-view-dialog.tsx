import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Loader,
  Menu,
  Modal,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import {
  IconDots,
  IconMusic,
  IconNotes,
  IconPaperclip,
  IconPlus,
  IconSettings,
  IconShare,
  IconTrash,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useState, type ComponentType } from 'react';
import type { ProjectItem, Version } from '@mixroom/contracts';
import {
  allowedVersionExtensions,
  baseName,
  extensionNotAllowed,
  extensionOf,
  LIMITS,
  projectDeleted,
  projectDeleteFailed,
  STORAGE_MESSAGES,
} from '@mixroom/shared';
import { formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { importFromConnector, type PickedFile } from '../../connectors/api';
import { followTransfer } from '../../connectors/queries';
import { useVersionUpload } from '../../uploads/use-version-upload';
import { useProject, useTrashItems } from '../queries';
import { LinkedFileButton } from './linked-file-button';
import type { FilePicker } from './new-project-wizard';
import { PeopleAvatars } from './people-avatars';
import { ProjectNotesDialog } from './project-notes-dialog';
import { SettingsDialog } from './settings-dialog';
import { VersionRow } from './version-row';

/** A version name's problem, shown under the field as soon as it is typed. */
const versionNameProblem = (value: string) =>
  !value.trim()
    ? STORAGE_MESSAGES.versionNameRequired
    : value.trim().length > LIMITS.nameMax
      ? STORAGE_MESSAGES.nameTooLong
      : null;

/** The header's more-actions menu: settings, notes and delete, each where the capabilities allow. */
function ProjectMenu({
  project,
  hasVersions,
  onSettings,
  onNotes,
  onDeleted,
}: {
  project: ProjectItem;
  hasVersions: boolean;
  onSettings: () => void;
  onNotes: () => void;
  onDeleted: () => void;
}) {
  const trash = useTrashItems();
  const caps = project.capabilities;
  if (!caps.canEdit && !caps.canDelete && !hasVersions) return null;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete Project',
      children: `Move “${project.name}” to the trash? ${STORAGE_MESSAGES.trashNote}`,
      labels: { confirm: 'Move to trash', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        // The view closes first, so the project it showed is not fetched again once it is gone.
        onDeleted();
        trash.mutateAsync([{ kind: 'project', id: project.id }]).then(
          () => notify('success', 'Delete Project', projectDeleted(project.name)),
          () => notify('error', 'Delete Project Error', projectDeleteFailed(project.name)),
        );
      },
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={`Actions for project ${project.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {caps.canEdit && (
          <Menu.Item leftSection={<IconSettings size={16} />} onClick={onSettings}>
            Settings
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconNotes size={16} />} disabled={!hasVersions} onClick={onNotes}>
          Notes
        </Menu.Item>
        {caps.canDelete && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * What the project view shows from other features (sharing, attachments): the page composing the
 * view passes them in, so storage never imports another feature's components.
 */
export interface ProjectViewSlots {
  ShareDialog: ComponentType<{ target: { type: 'project'; id: string; name: string }; onClose: () => void }>;
  AttachmentsDialog: ComponentType<{ projectId: string; opened: boolean; onClose: () => void }>;
  /** The cloud storage browser, so a new version can come from a linked account. */
  FilePicker?: FilePicker;
  /** "Save to…" for a version: a linked account's folder picker (null: closed). */
  SaveVersionTo?: ComponentType<{ version: Version | null; onClose: () => void }>;
}

/** The project view: thumbnail, people, Share, Attachments, the publisher's menu, versions (newest first), a new version. */
export function ProjectViewDialog({
  projectId,
  onClose,
  slots: { ShareDialog, AttachmentsDialog, FilePicker, SaveVersionTo },
}: {
  projectId: string | null;
  onClose: () => void;
  slots: ProjectViewSlots;
}) {
  const query = useProject(projectId);
  // The last project shown stays on screen while the dialog closes (its query is off by then), so
  // the closing frame is not a blank loader.
  const [shown, setShown] = useState(query.data);
  const [shownId, setShownId] = useState(projectId);
  if (query.data && query.data !== shown) setShown(query.data);
  const navigate = useNavigate();
  const mobile = useMediaQuery('(max-width: 999px)');
  const [attachmentsOpen, setAttachmentsOpen] = useState(false);
  const [savingVersion, setSavingVersion] = useState<Version | null>(null);
  const [panel, setPanel] = useState<'share' | 'settings' | 'notes' | null>(null);
  const uploadVersion = useVersionUpload();
  const [file, setFile] = useState<PickedFile | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (projectId && projectId !== shownId) {
    // Another project: nothing chosen for the previous one carries over.
    setShownId(projectId);
    setFile(null);
    setNameError(null);
    setError(null);
    setPanel(null);
  }
  const data = projectId ? query.data : shown;
  const last = data?.versions[0];

  const choose = (picked: PickedFile | null) => {
    setError(null);
    if (!picked) return;
    const allowed = data?.project.type === 'AUDIO' ? allowedVersionExtensions(last?.fileExtension ?? null) : null;
    if (allowed && !allowed.includes(extensionOf(picked.name))) return setError(extensionNotAllowed(allowed));
    setFile(picked);
    // Pre-filled from the file name, cut to the limit; a longer name typed later is refused, not cut.
    setName(baseName(picked.name).slice(0, LIMITS.nameMax));
    setNameError(null);
  };

  const upload = async () => {
    if (!projectId || !file) return;
    const problem = versionNameProblem(name);
    setNameError(problem);
    if (problem) {
      if (!name.trim()) notify('warning', 'New Version', STORAGE_MESSAGES.versionNameRequiredMessage);
      return;
    }
    const picked = file;
    setFile(null);
    // A linked file is copied by the server; the Activities panel follows the copy.
    const sent =
      picked.source === 'device'
        ? uploadVersion(projectId, name.trim(), picked.file)
        : importFromConnector(picked.connectorId, { path: picked.path, projectId, versionName: name.trim() }).then(
            ({ transfer }) => followTransfer(transfer, picked.name),
          );
    await sent.catch((failure: unknown) =>
      notify('error', 'Error', failure instanceof Error ? failure.message : String(failure)),
    );
  };

  const openVersion = (version: Version) => {
    if (!data) return;
    onClose();
    void navigate(`/version/${data.project.id}/${version.number}`);
  };

  return (
    <Modal
      opened={Boolean(projectId)}
      onClose={onClose}
      title={
        <Title order={4} component="span" lineClamp={1}>
          {data?.project.name ?? 'Project'}
        </Title>
      }
      centered
      size="xl"
      fullScreen={Boolean(mobile)}
    >
      {!data ? (
        <Loader color="violet" />
      ) : (
        <Stack>
          <Group wrap="nowrap" align="flex-start">
            {last?.thumbnailUrl ? (
              <img
                src={last.thumbnailUrl}
                alt=""
                width={mobile ? 72 : 96}
                height={mobile ? 72 : 96}
                style={{ borderRadius: 8, background: '#2b1a4a', flexShrink: 0 }}
              />
            ) : (
              <Avatar size={mobile ? 72 : 96} radius="md" color="violet">
                <IconMusic size={40} />
              </Avatar>
            )}
            <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm" c="dimmed">
                  Updated {formatDate(data.project.updatedAt)}
                </Text>
                <ProjectMenu
                  project={data.project}
                  hasVersions={data.versions.length > 0}
                  onSettings={() => setPanel('settings')}
                  onNotes={() => setPanel('notes')}
                  onDeleted={onClose}
                />
              </Group>
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <PeopleAvatars
                  publisher={data.project.publisher}
                  collaborators={data.project.collaborators ?? []}
                  size={24}
                />
                <Text size="sm" truncate>
                  {data.project.publisher.displayName}
                </Text>
                <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                  Publisher
                </Badge>
              </Group>
              <Group gap="xs" wrap="wrap">
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconShare size={14} />}
                  onClick={() => setPanel('share')}
                >
                  Share
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconPaperclip size={14} />}
                  rightSection={
                    <Badge size="xs" circle>
                      {data.attachmentCount}
                    </Badge>
                  }
                  onClick={() => setAttachmentsOpen(true)}
                >
                  Attachments
                </Button>
              </Group>
            </Stack>
          </Group>
          {projectId && (
            <AttachmentsDialog
              projectId={projectId}
              opened={attachmentsOpen}
              onClose={() => setAttachmentsOpen(false)}
            />
          )}
          {SaveVersionTo && <SaveVersionTo version={savingVersion} onClose={() => setSavingVersion(null)} />}
          {data.project.capabilities.canCreate && (
            <Card withBorder radius="md" padding="sm">
              <Stack gap="xs">
                <Group gap="sm" wrap="nowrap">
                  <FileButton
                    onChange={(picked) =>
                      choose(picked && { source: 'device', file: picked, name: picked.name, size: picked.size })
                    }
                    accept={
                      data.project.type === 'AUDIO'
                        ? allowedVersionExtensions(last?.fileExtension ?? null)
                            .map((e) => `.${e}`)
                            .join(',')
                        : undefined
                    }
                  >
                    {(props) => (
                      <Button leftSection={<IconPlus size={16} />} variant="light" style={{ flexShrink: 0 }} {...props}>
                        Version
                      </Button>
                    )}
                  </FileButton>
                  {FilePicker && data.project.type === 'AUDIO' && (
                    <LinkedFileButton
                      filePicker={FilePicker}
                      accept={allowedVersionExtensions(last?.fileExtension ?? null)}
                      onPick={choose}
                    />
                  )}
                  <Text size="sm" c="dimmed" truncate>
                    {file ? file.name : 'Add a new version from a file'}
                  </Text>
                </Group>
                {file && (
                  <Group align="flex-start" wrap="nowrap" gap="sm">
                    <TextInput
                      label="Version name"
                      value={name}
                      onChange={(e) => {
                        setName(e.target.value);
                        setNameError(versionNameProblem(e.target.value));
                      }}
                      error={nameError}
                      description={`${name.trim().length}/${LIMITS.nameMax}`}
                      inputWrapperOrder={['label', 'input', 'description', 'error']}
                      style={{ flex: 1, minWidth: 0 }}
                    />
                    <Button mt={25} style={{ flexShrink: 0 }} onClick={() => void upload()}>
                      Upload
                    </Button>
                  </Group>
                )}
              </Stack>
              {error && (
                <Text c="red" size="sm" mt="xs">
                  {error}
                </Text>
              )}
            </Card>
          )}
          <ScrollArea.Autosize mah={mobile ? undefined : '50vh'}>
            <Stack gap="xs">
              {data.versions.length === 0 && <Text c="dimmed">No versions yet. Add one with “Version”.</Text>}
              {data.versions.map((version) => (
                <VersionRow
                  key={version.id}
                  version={version}
                  versions={data.versions}
                  compact={Boolean(mobile)}
                  canEdit={data.project.capabilities.canEdit}
                  canDownload={data.project.capabilities.canDownload}
                  onProjectDeleted={onClose}
                  onOpen={data.project.type === 'AUDIO' ? () => openVersion(version) : null}
                  {...(SaveVersionTo ? { onSaveTo: setSavingVersion } : {})}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
      {data && panel === 'share' && (
        <ShareDialog
          target={{ type: 'project', id: data.project.id, name: data.project.name }}
          onClose={() => setPanel(null)}
        />
      )}
      {data && panel === 'settings' && <SettingsDialog item={data.project} onClose={() => setPanel(null)} />}
      {data && panel === 'notes' && (
        <ProjectNotesDialog projectId={data.project.id} versions={data.versions} onClose={() => setPanel(null)} />
      )}
    </Modal>
  );
}
