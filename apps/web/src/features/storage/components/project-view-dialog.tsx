import { ActionIcon, Anchor, Avatar, Badge, Button, Card, FileButton, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconDownload, IconPaperclip, IconPlus, IconMusic } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useState } from 'react';
import type { Version } from '@mixroom/contracts';
import { allowedVersionExtensions, baseName, extensionNotAllowed, extensionOf, LIMITS, STORAGE_MESSAGES } from '@mixroom/shared';
import { formatBytes, formatDate, formatDuration } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { useVersionUpload } from '../../uploads/use-version-upload';
import { useProject } from '../queries';
import { useDownloadVersion } from '../hooks/use-download';
import { AttachmentsDialog } from '../../review/components/attachments-dialog';
import { VersionMenu } from './version-menu';

function VersionRow({
  version,
  canEdit,
  canDownload,
  onProjectDeleted,
  onOpen,
}: {
  version: Version;
  canEdit: boolean;
  canDownload: boolean;
  onProjectDeleted: () => void;
  /** Audio versions open in the review screen (spec 2 Version screen). */
  onOpen: (() => void) | null;
}) {
  const download = useDownloadVersion();
  return (
    <Card withBorder radius="md" padding="sm" data-testid="version-row">
      <Group wrap="nowrap" justify="space-between">
        <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
          <Badge variant="light" size="lg" radius="sm" style={{ flexShrink: 0 }}>
            v{version.number}
          </Badge>
          <div style={{ minWidth: 0 }}>
            {onOpen ? (
              <Anchor component="button" fw={600} size="sm" onClick={onOpen} style={{ display: 'block', maxWidth: '100%' }} truncate="end">
                {version.name}
              </Anchor>
            ) : (
              <Text fw={600} size="sm" truncate>
                {version.name}
              </Text>
            )}
            <Text size="xs" c="dimmed" truncate>
              {version.fileName} · {formatBytes(version.fileSize)} · {formatDate(version.createdAt)}
              {version.durationSeconds ? ` · ${formatDuration(version.durationSeconds)}` : ''}
              {version.loudness ? ` · ${version.loudness.integrated.toFixed(1)} LUFS` : ''}
            </Text>
          </div>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {version.status !== 'ready' && (
            <Badge color={version.status === 'corrupt' ? 'red' : 'gray'} variant="light">
              {version.status === 'processing' ? `processing ${version.progress}%` : version.status}
            </Badge>
          )}
          <VersionMenu version={version} canEdit={canEdit} canDownload={canDownload} onProjectDeleted={onProjectDeleted} />
          {canDownload && (
            <Tooltip label="Download Version">
              <ActionIcon
                variant="subtle"
                aria-label={`Download version ${version.number}`}
                loading={download.isPending}
                onClick={() => download.mutate(version)}
              >
                <IconDownload size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/** The project view: thumbnail, publisher, versions (newest first) with download, and a new version. */
export function ProjectViewDialog({ projectId, onClose }: { projectId: string | null; onClose: () => void }) {
  const query = useProject(projectId);
  const navigate = useNavigate();
  const [attachmentsOpen, setAttachmentsOpen] = useState(false);
  const uploadVersion = useVersionUpload();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const data = query.data;
  const last = data?.versions[0];

  const choose = (picked: File | null) => {
    setError(null);
    if (!picked) return;
    const allowed = data?.project.type === 'AUDIO' ? allowedVersionExtensions(last?.fileExtension ?? null) : null;
    if (allowed && !allowed.includes(extensionOf(picked.name))) return setError(extensionNotAllowed(allowed));
    setFile(picked);
    setName(baseName(picked.name).slice(0, LIMITS.nameMax));
  };

  const upload = async () => {
    if (!projectId || !file) return;
    if (!name.trim()) return setError(STORAGE_MESSAGES.versionNameRequired);
    const picked = file;
    setFile(null);
    await uploadVersion(projectId, name.trim(), picked).catch((failure: unknown) =>
      notify('error', 'Error', failure instanceof Error ? failure.message : String(failure)),
    );
  };

  return (
    <Modal opened={Boolean(projectId)} onClose={onClose} title={data?.project.name ?? 'Project'} centered size="xl">
      {!data ? (
        <Loader color="violet" />
      ) : (
        <Stack>
          <Group wrap="nowrap" align="flex-start">
            {last?.thumbnailUrl ? (
              <img src={last.thumbnailUrl} alt="" width={96} height={96} style={{ borderRadius: 8, background: '#2b1a4a' }} />
            ) : (
              <Avatar size={96} radius="md" color="violet">
                <IconMusic size={40} />
              </Avatar>
            )}
            <div>
              <Text size="sm" c="dimmed">
                Updated {formatDate(data.project.updatedAt)}
              </Text>
              <Group gap={6} mt={4}>
                <Avatar size={22} radius="xl" name={data.project.publisher.displayName} color="initials" />
                <Text size="sm">{data.project.publisher.displayName}</Text>
                <Badge size="xs" variant="light">
                  Publisher
                </Badge>
              </Group>
              <Button
                mt="sm"
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
            </div>
          </Group>
          {projectId && <AttachmentsDialog projectId={projectId} opened={attachmentsOpen} onClose={() => setAttachmentsOpen(false)} />}
          {data.project.capabilities.canCreate && (
            <Card withBorder radius="md" padding="sm">
              <Group align="flex-end" wrap="wrap">
                <FileButton
                  onChange={choose}
                  accept={
                    data.project.type === 'AUDIO'
                      ? allowedVersionExtensions(last?.fileExtension ?? null)
                          .map((e) => `.${e}`)
                          .join(',')
                      : undefined
                  }
                >
                  {(props) => (
                    <Button leftSection={<IconPlus size={16} />} variant="light" {...props}>
                      Version
                    </Button>
                  )}
                </FileButton>
                {file && (
                  <>
                    <TextInput
                      label="Version name"
                      value={name}
                      onChange={(e) => setName(e.target.value)}
                      maxLength={LIMITS.nameMax}
                      style={{ flex: 1, minWidth: 200 }}
                    />
                    <Button onClick={() => void upload()}>Upload</Button>
                  </>
                )}
              </Group>
              {error && (
                <Text c="red" size="sm" mt="xs">
                  {error}
                </Text>
              )}
            </Card>
          )}
          <ScrollArea.Autosize mah="50vh">
            <Stack gap="xs">
              {data.versions.length === 0 && <Text c="dimmed">No versions yet. Add one with “Version”.</Text>}
              {data.versions.map((version) => (
                <VersionRow
                  key={version.id}
                  version={version}
                  canEdit={data.project.capabilities.canEdit}
                  canDownload={data.project.capabilities.canDownload}
                  onProjectDeleted={onClose}
                  onOpen={
                    data.project.type === 'AUDIO'
                      ? () => {
                          onClose();
                          void navigate(`/version/${data.project.id}/${version.number}`);
                        }
                      : null
                  }
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Modal>
  );
}
