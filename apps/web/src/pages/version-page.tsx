import { Badge, Button, Center, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Comment, ProjectItem, Version } from '@mixroom/contracts';
import { PLAYER, roundTime } from '@mixroom/shared';
import { formatDuration } from '../lib/format/format';
import { useTopic } from '../lib/realtime/realtime-provider';
import { SaveVersionToDialog } from '../features/connectors/components/save-version-to';
import { AttachmentsDialog } from '../features/review/components/attachments-dialog';
import { CommentsPanel } from '../features/review/components/comments-panel';
import { CorruptVersionDialog, VersionWarning } from '../features/review/components/corrupt-version-dialog';
import { LoudnessDialog } from '../features/review/components/loudness-dialog';
import { PeakMeter } from '../features/review/components/peak-meter';
import { PlayerEffects } from '../features/review/components/player-effects';
import { ToolsEntryMenu, toolsTake } from '../features/tools/components/tools-entry';
import { ReviewHeader } from '../features/review/components/review-header';
import { ShortcutsDialog } from '../features/review/components/shortcuts-dialog';
import { CompareBar } from '../features/review/components/compare-bar';
import { CompareWaveform } from '../features/review/components/compare-waveform';
import { DifferenceLane } from '../features/review/components/difference-lane';
import { ReviewToolbar, type Panel } from '../features/review/components/review-toolbar';
import { TransportBar } from '../features/review/components/transport-bar';
import { WaveformUnavailable, WaveformView, type Draft } from '../features/review/components/waveform-view';
import { PlayerContext } from '../features/review/hooks/use-player';
import type { PlayerController } from '../features/review/player-controller';
import { useCompare } from '../features/review/hooks/use-compare';
import { useComments, usePeaks, useSpectrogram, useStreamUrl } from '../features/review/queries';
import { filterComments, type CommentFilter } from '../features/review/comment-filter';
import { newDraft } from '../features/review/draft';
import { storageKeys, useProject } from '../features/storage/queries';
import { useDownloadVersion } from '../features/storage/hooks/use-download';
import { VersionMenu } from '../features/storage/components/version-menu';
import { ProjectDialog } from './project-dialog';
import classes from '../features/review/components/review.module.css';

// TipTap is only fetched when someone opens the notes.
const NotesDialog = lazy(() => import('../features/review/components/notes-dialog'));

type ProjectDetail = NonNullable<ReturnType<typeof useProject>['data']>;

const channelName = (channels: number) =>
  channels === 1 ? 'Mono' : channels === 2 ? 'Stereo' : `${channels} channels`;

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
  const projectId = item.id;
  const navigate = useNavigate();
  const download = useDownloadVersion();
  const ready = version.status === 'ready';
  const peaks = usePeaks(version.id, ready);
  const stream = useStreamUrl(version.id, ready);
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
  const [filter, setFilter] = useState<CommentFilter>('all');
  const [savingVersion, setSavingVersion] = useState<Version | null>(null);
  const compare = useCompare(player, version, versions);
  // Comments follow the version heard: B's while B plays in A/B mode.
  const other = compare.other;
  const bHeard = Boolean(other) && compare.state.active === 'B';
  const shown = bHeard && other ? other : version;
  useTopic(other && other.projectId !== projectId ? `project:${other.projectId}` : null);
  const comments = useComments(shown.id);
  const shownComments = useMemo(() => filterComments(comments.data ?? [], filter), [comments.data, filter]);
  // Bumped by the loudness dialog's link: the platform selector comes into view, open.
  const [revealPlatform, setRevealPlatform] = useState(0);
  const previewPlatforms = useCallback(() => {
    toggle('loudness');
    setRevealPlatform((n) => n + 1);
  }, [toggle]);
  const composer = useRef<HTMLTextAreaElement>(null);
  const commentsPanel = useRef<HTMLDivElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const showHelp = useCallback(() => setHelpOpen(true), []);
  const mix = compare.mix;
  const shortcuts = useMemo(() => {
    // A draft at the playhead, then the comment box, ready to type.
    const startDraft = (type: Draft['type']) => {
      setDraft(newDraft(type, player?.getState().currentTime ?? 0, shown.durationSeconds ?? 0));
      composer.current?.focus();
    };
    return {
      onComment: () => startDraft('timestamp'),
      // The comments are the markers: their list comes into view with the focus, ready for Tab.
      onMarkers: () => {
        commentsPanel.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
        commentsPanel.current?.focus({ preventScroll: true });
      },
      onRange: () => startDraft('range'),
      onCompare: () => mix?.toggle(),
      onHelp: showHelp,
    };
  }, [player, shown.durationSeconds, mix, showHelp]);

  const media = version.media;
  const corrupt = version.status === 'corrupt' || loadFailed;
  return (
    <PlayerContext.Provider value={player}>
      <div className={classes.page}>
        <ReviewHeader
          item={item}
          versions={versions}
          version={version}
          versionMenu={
            <>
              <VersionMenu
                version={version}
                canEdit={item.capabilities.canEdit}
                canDownload={item.capabilities.canDownload}
                onProjectDeleted={() => void navigate('/groups')}
                singleFieldEditor
                onSaveTo={setSavingVersion}
              />
              <SaveVersionToDialog version={savingVersion} onClose={() => setSavingVersion(null)} />
              {toolsTake(version, item.capabilities.canDownload) && <ToolsEntryMenu version={version} />}
            </>
          }
        />
        <ReviewToolbar
          project={item}
          version={version}
          attachmentCount={attachmentCount}
          panels={panels}
          onToggle={toggle}
          onDownload={download.mutate}
          downloading={download.isPending}
          AddVersionDialog={ProjectDialog}
        />
        <PlayerEffects projectId={item.id} versionId={version.id} onLoadError={onLoadError} shortcuts={shortcuts} />
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
                onSourceExpired={async () => (await stream.refetch()).data?.url ?? null}
                comments={shownComments}
                draft={draft}
                spectrogramUrl={panels.has('spectrogram') ? (spectrogram.data ?? null) : null}
                onDraftChange={(range) =>
                  setDraft((d) =>
                    d?.type === 'range' ? { ...d, start: roundTime(range.start), end: roundTime(range.end) } : d,
                  )
                }
                onOpenComment={open}
                onPlayer={setPlayer}
                dimmed={bHeard}
                label={other ? `A · v${version.number}` : null}
                below={
                  other && (
                    <>
                      <CompareWaveform
                        versionId={other.id}
                        label={`B · ${compare.otherProject ? `${compare.otherProject} ` : ''}v${other.number}`}
                        duration={peaks.data.durationSeconds}
                        active={bHeard}
                      />
                      <DifferenceLane
                        versionId={version.id}
                        otherVersionId={other.id}
                        duration={peaks.data.durationSeconds}
                      />
                    </>
                  )
                }
              >
                <VersionWarning version={version} />
                {panels.has('spectrogram') && (spectrogram.isFetching || spectrogram.data === null) && (
                  <Text size="xs" c="#a9a3c9" mt={4}>
                    Rendering the spectrogram…
                  </Text>
                )}
                <TransportBar onShortcuts={showHelp} />
                {panels.has('meter') && <PeakMeter />}
                <CompareBar version={version} versions={versions} compare={compare} revealPlatform={revealPlatform} />
              </WaveformView>
            ) : (
              <Center h={180}>
                <Loader color="violet" size="sm" />
              </Center>
            )}
          </div>
          <CommentsPanel
            versionId={shown.id}
            subtitle={
              other
                ? `on ${bHeard ? 'B' : 'A'} · ${bHeard && compare.otherProject ? `${compare.otherProject} ` : ''}v${shown.number}`
                : null
            }
            comments={comments.data ?? []}
            duration={shown.durationSeconds ?? 0}
            draft={draft}
            onDraft={setDraft}
            highlightedId={highlighted}
            onOpen={open}
            filter={filter}
            onFilter={setFilter}
            composer={composer}
            panel={commentsPanel}
          />
        </div>
        {corrupt && (
          <CorruptVersionDialog version={version} canDelete={item.capabilities.canEdit} remaining={versions} />
        )}
        <LoudnessDialog
          version={version}
          opened={panels.has('loudness')}
          onClose={() => toggle('loudness')}
          onPreview={ready && !corrupt ? previewPlatforms : null}
        />
        <AttachmentsDialog
          projectId={projectId}
          opened={panels.has('attachments')}
          onClose={() => toggle('attachments')}
        />
        <ShortcutsDialog opened={helpOpen} onClose={() => setHelpOpen(false)} />
        {panels.has('notes') && (
          <Suspense fallback={null}>
            <NotesDialog versions={versions} initialVersionId={version.id} onClose={() => toggle('notes')} />
          </Suspense>
        )}
      </div>
    </PlayerContext.Provider>
  );
}
