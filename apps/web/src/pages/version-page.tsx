import { Anchor, Badge, Button, Center, Group, Loader, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Comment, ProjectItem, Version } from '@mixroom/contracts';
import { PLAYER, roundTime } from '@mixroom/shared';
import { formatDuration } from '../lib/format/format';
import { useTopic } from '../lib/realtime/realtime-provider';
import { AttachmentsDialog } from '../features/review/components/attachments-dialog';
import { CommentsPanel } from '../features/review/components/comments-panel';
import { CorruptVersionDialog, VersionWarning } from '../features/review/components/corrupt-version-dialog';
import { LoudnessDialog } from '../features/review/components/loudness-dialog';
import { PeakMeter } from '../features/review/components/peak-meter';
import { PresenceAvatars } from '../features/review/components/presence-avatars';
import { ReviewToolbar, type Panel } from '../features/review/components/review-toolbar';
import { TransportBar } from '../features/review/components/transport-bar';
import { WaveformUnavailable, WaveformView, type Draft } from '../features/review/components/waveform-view';
import { PlayerContext, usePlayer, usePlayerState } from '../features/review/hooks/use-player';
import type { PlayerController } from '../features/review/player-controller';
import { usePlayerShortcuts } from '../features/review/hooks/use-player-shortcuts';
import { usePresenceHeartbeat } from '../features/review/hooks/use-presence';
import { useComments, usePeaks, useSpectrogram, useStreamUrl } from '../features/review/queries';
import { VersionMenu } from '../features/storage/components/version-menu';
import { storageKeys, useProject } from '../features/storage/queries';
import classes from '../features/review/components/review.module.css';

// TipTap is only fetched when someone opens the notes.
const NotesDialog = lazy(() => import('../features/review/components/notes-dialog'));

type ProjectDetail = NonNullable<ReturnType<typeof useProject>['data']>;

const channelName = (channels: number) =>
  channels === 1 ? 'Mono' : channels === 2 ? 'Stereo' : `${channels} channels`;

/** Shortcuts, presence and the corrupt-audio check need the player that the waveform creates. */
function PlayerEffects({ versionId, onLoadError }: { versionId: string; onLoadError: () => void }) {
  const player = usePlayer();
  const playing = usePlayerState((s) => s.playing);
  const error = usePlayerState((s) => s.error);
  usePlayerShortcuts(player);
  const inactive = usePresenceHeartbeat(versionId, playing);
  useEffect(() => {
    if (error) onLoadError();
  }, [error, onLoadError]);
  return inactive ? (
    <Text size="xs" c="dimmed" mt={4}>
      You are shown as away after {PLAYER.inactivityTimeoutMs / 60_000} minutes without activity.
    </Text>
  ) : null;
}

/** /version/{projectId}/{versionNumber}: listen, comment on the waveform, keep notes. */
export function VersionPage() {
  const { projectId = '', versionNumber = '' } = useParams();
  const navigate = useNavigate();
  const closing = useProjectClosing(projectId);
  // Once the project's last version is being deleted the project goes with it: the page stops
  // asking for it (a refetch would only report that it no longer exists) and shows what it had
  // until the deletion's own handler navigates away.
  const project = useProject(closing.gone ? null : projectId);
  const data = project.data ?? (closing.gone ? closing.last : undefined);
  useTopic(projectId && !closing.gone ? `project:${projectId}` : null);
  useTopic(data?.project.groupId && !closing.gone ? `group:${data.project.groupId}` : null);

  if (project.isLoading || (closing.gone && !data)) return <Loader color="violet" m="xl" />;
  if (!data)
    return (
      <Center h={300}>
        <Stack align="center">
          <Text>{project.error?.message ?? 'This project could not be opened.'}</Text>
          <Button component={Link} to="/groups">
            Back to my groups
          </Button>
        </Stack>
      </Center>
    );
  const versions = data.versions;
  const version = versions.find((v) => v.number === Number(versionNumber));
  if (!version)
    return (
      <Center h={300}>
        <Stack align="center">
          <Text>
            Version {versionNumber} does not exist in {data.project.name}.
          </Text>
          {versions[0] && (
            <Button onClick={() => void navigate(`/version/${projectId}/${versions[0]!.number}`)}>
              Open the latest version
            </Button>
          )}
        </Stack>
      </Center>
    );
  // Keyed by version: drafts, highlights and the player start afresh for each version.
  return (
    <VersionReview
      key={version.id}
      item={data.project}
      versions={versions}
      version={version}
      attachmentCount={data.attachmentCount}
    />
  );
}

/**
 * Whether a deletion of this project's only version is under way or done, read from the mutation
 * cache so it holds however the deletion was started (version menu or corrupt-version dialog).
 */
function useProjectClosing(projectId: string): { gone: boolean; last: ProjectDetail | undefined } {
  const queryClient = useQueryClient();
  const deleting = useMutationState({
    filters: { predicate: (mutation) => mutation.state.status === 'pending' || mutation.state.status === 'success' },
    select: (mutation) => mutation.state.variables,
  });
  const last = queryClient.getQueryData<ProjectDetail>(storageKeys.project(projectId));
  const only = last?.versions.length === 1 ? last.versions[0]!.id : null;
  const gone = only !== null && deleting.some((variables) => isVersionRef(variables) && variables.id === only);
  return { gone, last };
}

const isVersionRef = (value: unknown): value is { id: string } =>
  typeof value === 'object' &&
  value !== null &&
  'id' in value &&
  typeof value.id === 'string' &&
  Object.keys(value).length === 1;

function VersionReview({
  item,
  versions,
  version,
  attachmentCount,
}: {
  item: ProjectItem;
  versions: Version[];
  version: Version;
  attachmentCount: number;
}) {
  const navigate = useNavigate();
  const projectId = item.id;
  const ready = version.status === 'ready';
  const peaks = usePeaks(version.id, ready);
  const stream = useStreamUrl(version.id, ready);
  const comments = useComments(version.id);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [panels, setPanels] = useState<Set<Panel>>(new Set());
  const [loadFailed, setLoadFailed] = useState(false);
  const spectrogram = useSpectrogram(version.id, ready && panels.has('spectrogram'));

  const toggle = useCallback(
    (panel: Panel) =>
      setPanels((current) => {
        const next = new Set(current);
        if (next.has(panel)) next.delete(panel);
        else next.add(panel);
        return next;
      }),
    [],
  );

  const [player, setPlayer] = useState<PlayerController | null>(null);
  const open = useCallback(
    (comment: Comment) => {
      player?.seek(comment.startTime);
      if (comment.type === 'range' && comment.endTime !== null)
        player?.setLoopRange({ start: comment.startTime, end: comment.endTime });
      setHighlighted(comment.id);
    },
    [player],
  );
  useEffect(() => {
    if (!highlighted) return;
    const fade = setTimeout(() => setHighlighted(null), PLAYER.highlightFadeMs);
    return () => clearTimeout(fade);
  }, [highlighted]);
  const onLoadError = useCallback(() => setLoadFailed(true), []);

  const media = version.media;
  const corrupt = version.status === 'corrupt' || loadFailed;
  return (
    <PlayerContext.Provider value={player}>
      <div className={classes.page}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Anchor
              component={Link}
              to={item.groupId ? `/groups/${item.groupId}` : '/groups'}
              aria-label="Back to the folder"
            >
              <IconArrowLeft size={20} />
            </Anchor>
            <Title order={3} lineClamp={1} style={{ minWidth: 0 }}>
              {item.name}
            </Title>
            <Select
              aria-label="Version"
              w={{ base: 150, sm: 220 }}
              allowDeselect={false}
              data={versions.map((v) => ({ value: String(v.number), label: `v${v.number} · ${v.name}` }))}
              value={String(version.number)}
              onChange={(value) => value && void navigate(`/version/${projectId}/${value}`)}
            />
            <VersionMenu
              version={version}
              canEdit={item.capabilities.canEdit}
              canDownload={item.capabilities.canDownload}
              onProjectDeleted={() => void navigate('/groups')}
            />
          </Group>
          <PresenceAvatars versionId={version.id} />
        </Group>
        <ReviewToolbar
          project={item}
          version={version}
          attachmentCount={attachmentCount}
          panels={panels}
          onToggle={toggle}
        />
        <PlayerEffects versionId={version.id} onLoadError={onLoadError} />
        <div className={classes.layout}>
          <div className={classes.playerCard} data-testid="player">
            <Group gap="xs" mb="xs" data-testid="media-header">
              {media && (
                <Badge variant="light" color="violet">
                  {channelName(media.channels)}
                </Badge>
              )}
              <Badge variant="light" color="gray">
                {version.fileExtension.toUpperCase()}
              </Badge>
              {version.durationSeconds !== null && (
                <Badge variant="light" color="gray">
                  {formatDuration(version.durationSeconds)}
                </Badge>
              )}
              {media && (
                <Text size="xs" c="#a9a3c9">
                  {(media.sampleRate / 1000).toLocaleString()} kHz{media.bitDepth ? ` · ${media.bitDepth}-bit` : ''} ·{' '}
                  {version.fileName}
                </Text>
              )}
            </Group>
            {version.status === 'processing' || version.status === 'uploading' ? (
              <Stack h={180} justify="center">
                <Text c="#a9a3c9" ta="center">
                  {version.status === 'uploading'
                    ? 'This version is still uploading.'
                    : `Processing the audio… ${version.progress}%`}
                </Text>
                <Progress value={version.progress} animated color="violet" />
              </Stack>
            ) : corrupt ? (
              <WaveformUnavailable>This version cannot be played.</WaveformUnavailable>
            ) : peaks.data && stream.data ? (
              <WaveformView
                key={version.id}
                peaks={peaks.data}
                streamUrl={stream.data.url}
                onSourceExpired={() => void stream.refetch()}
                comments={comments.data ?? []}
                draft={draft}
                spectrogramUrl={panels.has('spectrogram') ? (spectrogram.data ?? null) : null}
                onDraftChange={(range) =>
                  setDraft((d) =>
                    d?.type === 'range' ? { ...d, start: roundTime(range.start), end: roundTime(range.end) } : d,
                  )
                }
                onOpenComment={open}
                onPlayer={setPlayer}
              >
                <VersionWarning version={version} />
                {panels.has('spectrogram') && spectrogram.isFetching && (
                  <Text size="xs" c="#a9a3c9" mt={4}>
                    Rendering the spectrogram…
                  </Text>
                )}
                <TransportBar />
                {panels.has('meter') && <PeakMeter />}
              </WaveformView>
            ) : (
              <Center h={180}>
                <Loader color="violet" size="sm" />
              </Center>
            )}
          </div>
          <CommentsPanel
            versionId={version.id}
            comments={comments.data ?? []}
            duration={version.durationSeconds ?? 0}
            draft={draft}
            onDraft={setDraft}
            highlightedId={highlighted}
            onOpen={open}
          />
        </div>
        {corrupt && (
          <CorruptVersionDialog version={version} canDelete={item.capabilities.canEdit} remaining={versions} />
        )}
        <LoudnessDialog version={version} opened={panels.has('loudness')} onClose={() => toggle('loudness')} />
        <AttachmentsDialog
          projectId={projectId}
          opened={panels.has('attachments')}
          onClose={() => toggle('attachments')}
        />
        {panels.has('notes') && (
          <Suspense fallback={null}>
            <NotesDialog versions={versions} initialVersionId={version.id} onClose={() => toggle('notes')} />
          </Suspense>
        )}
      </div>
    </PlayerContext.Provider>
  );
}
