import { Center, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Comment } from '@mixroom/contracts';
import type { PeaksFile } from '../api';
import { PlayerController } from '../player-controller';
import { usePlayerState } from '../hooks/use-player';
import { CommentMarkers } from './comment-markers';
import { SpectrogramLane } from './spectrogram-lane';
import { TimeRuler } from './time-ruler';
import classes from './review.module.css';

import type { Draft } from '../draft';

export type { Draft };

/**
 * The waveform of one version, drawn from server peaks the moment they arrive, with its minimap,
 * time ruler, comment markers and optional spectrogram lane. It creates the player and hands it to the
 * page, which shares it with every control through PlayerContext.
 */
export function WaveformView({
  peaks,
  streamUrl,
  comments,
  draft,
  spectrogramUrl,
  onDraftChange,
  onOpenComment,
  onPlayer,
  onSourceExpired,
  dimmed = false,
  label = null,
  below,
  children,
}: {
  peaks: PeaksFile;
  streamUrl: string;
  comments: Comment[];
  draft: Draft | null;
  spectrogramUrl: string | null;
  onDraftChange: (range: { start: number; end: number }) => void;
  onOpenComment: (comment: Comment) => void;
  onPlayer: (player: PlayerController | null) => void;
  /** The player's stream URL expired: fetch a fresh one (or null when there is none). */
  onSourceExpired?: () => Promise<string | null>;
  /** A/B mode with B heard: A's waveform steps back. */
  dimmed?: boolean;
  /** Names the waveform when another is shown under it ("A · v1"). */
  label?: string | null;
  /** Lanes drawn under the ruler on the same time scale (B's waveform, what changed). */
  below?: ReactNode;
  children: ReactNode;
}) {
  const waveRef = useRef<HTMLDivElement>(null);
  const minimapRef = useRef<HTMLDivElement>(null);
  const [player, setPlayer] = useState<PlayerController | null>(null);
  const draftChange = useRef(onDraftChange);
  const sourceExpired = useRef(onSourceExpired);
  useEffect(() => {
    draftChange.current = onDraftChange;
    sourceExpired.current = onSourceExpired;
  }, [onDraftChange, onSourceExpired]);
  useEffect(() => {
    onPlayer(player);
  }, [player, onPlayer]);

  useEffect(() => {
    if (!waveRef.current || !minimapRef.current) return;
    const controller = new PlayerController(waveRef.current, peaks, streamUrl, {
      minimap: minimapRef.current,
      onDraftChange: (range) => draftChange.current(range),
      onSourceExpired: () => sourceExpired.current?.() ?? Promise.resolve(null),
    });
    setPlayer(controller);
    // The benchmark drives the real player from the page.
    (window as unknown as { __mixroomPlayer?: PlayerController }).__mixroomPlayer = controller;
    return () => {
      controller.destroy();
      setPlayer(null);
    };
    // A new stream URL for the same version must not rebuild the waveform.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [peaks]);

  // A renewed stream URL reaches the playing player without rebuilding it.
  useEffect(() => {
    player?.renewSource(streamUrl);
  }, [player, streamUrl]);

  useEffect(() => {
    player?.showDraftRange(
      draft?.type === 'range' && draft.end !== null ? { start: draft.start, end: draft.end } : null,
    );
    if (draft?.type === 'range' && draft.end !== null) player?.setLoopRange({ start: draft.start, end: draft.end });
  }, [player, draft]);

  return (
    <>
      <div ref={minimapRef} className={classes.minimap} data-testid="minimap" />
      <div
        className={`${classes.waveHost} ${dimmed ? classes.dimmed : ''}`}
        data-testid="wave-host"
        data-dimmed={dimmed}
      >
        <div ref={waveRef} className={classes.wave} data-testid="waveform" />
        {label && <div className={`${classes.waveLabel} ${classes.waveLabelA}`}>{label}</div>}
        <Follow player={player} className={classes.markerLayer}>
          <CommentMarkers comments={comments} duration={peaks.durationSeconds} onOpen={onOpenComment} />
          {draft?.type === 'timestamp' && <DraftMarker at={draft.start / peaks.durationSeconds} />}
        </Follow>
        {!player && (
          <Center pos="absolute" inset={0}>
            <Loader color="violet" size="sm" />
          </Center>
        )}
      </div>
      <TimeRuler player={player} duration={peaks.durationSeconds} />
      {spectrogramUrl && (
        <SpectrogramLane>
          <Follow player={player} className={classes.spectrogramLayer}>
            <img src={spectrogramUrl} alt="Spectrogram" className={classes.spectrogram} data-testid="spectrogram" />
          </Follow>
        </SpectrogramLane>
      )}
      {below}
      {children}
    </>
  );
}

/** The draft's marker; near the end it leans left so it stays inside the waveform. */
function DraftMarker({ at }: { at: number }) {
  return (
    <div
      className={classes.draftMarker}
      style={{ left: `${at * 100}%`, transform: `translateX(-${at * 100}%)` }}
      data-testid="draft-marker"
    />
  );
}

/** A layer in the page that tracks the waveform's zoomed width and scroll. */
export function Follow({
  player,
  className,
  children,
}: {
  player: PlayerController | null;
  className: string | undefined;
  children: ReactNode;
}) {
  const layout = usePlayerState((s) => s.layout, player);
  return (
    <div className={className}>
      <div
        style={{
          position: 'absolute',
          top: 0,
          bottom: 0,
          left: 0,
          width: layout.width || '100%',
          transform: `translateX(${-layout.scroll}px)`,
        }}
      >
        {children}
      </div>
    </div>
  );
}

export function WaveformUnavailable({ children }: { children: ReactNode }) {
  return (
    <Center h={160}>
      <Text c="dimmed">{children}</Text>
    </Center>
  );
}
