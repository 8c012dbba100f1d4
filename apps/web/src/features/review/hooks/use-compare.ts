import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Version } from '@mixroom/contracts';
import { useProject } from '../../storage/queries';
import { PlaybackMix, type CompareState } from '../ab-compare';
import { playbackGains, type PlatformChoice } from '../playback-gain';
import type { PlayerController } from '../player-controller';
import { useDifferenceOffset, useStreamUrl } from '../queries';

const idle: CompareState = { active: 'A', bReady: false, gains: { a: 0, b: 0 } };
const noop = () => () => undefined;

/** The version B is: one of this project's, or a reference track of any project the user sees. */
export interface ComparePick {
  id: string;
  projectId: string;
}

export interface Compare {
  mix: PlaybackMix | null;
  state: CompareState;
  other: Version | null;
  /** B's project name when B is a reference track from another project. */
  otherProject: string | null;
  pick: (choice: ComparePick | null) => void;
  match: boolean;
  setMatch: (match: boolean) => void;
  platform: PlatformChoice;
  setPlatform: (platform: PlatformChoice) => void;
}

/**
 * A/B compare and platform preview of the version under review. Web Audio is only brought in once
 * either is asked for: until then the player plays its media element directly, as before.
 */
export function useCompare(player: PlayerController | null, version: Version, versions: Version[]): Compare {
  const [choice, pick] = useState<ComparePick | null>(null);
  const reference = choice && choice.projectId !== version.projectId ? choice.projectId : null;
  const referenceProject = useProject(reference);
  const [match, setMatch] = useState(true);
  const [platform, setPlatform] = useState<PlatformChoice>('Original');
  const [mix, setMix] = useState<PlaybackMix | null>(null);
  const pool = reference ? (referenceProject.data?.versions ?? []) : versions;
  const other = (choice && pool.find((v) => v.id === choice.id)) ?? null;
  const otherProject = reference ? (referenceProject.data?.project.name ?? null) : null;
  const wanted = Boolean(player) && (Boolean(other) || platform !== 'Original');
  const stream = useStreamUrl(other?.id ?? '', Boolean(other));

  useEffect(() => {
    if (!wanted || !player) return;
    const created = new PlaybackMix(player.media, () => player.getState().rate);
    // The mix reroutes the media element through Web Audio for good: it is made only here, once
    // it is asked for, never during render, and handed to the render that follows.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMix(created);
    (window as unknown as { __mixroomCompare?: PlaybackMix }).__mixroomCompare = created;
    return () => {
      created.destroy();
      setMix(null);
    };
  }, [wanted, player]);

  // B loads once per version chosen; a renewed URL for the same version is not a new B.
  const url = stream.data?.url ?? null;
  const loaded = useRef<{ mix: PlaybackMix; id: string | null } | null>(null);
  useEffect(() => {
    if (!mix) return;
    if (other && !url) return;
    const id = other ? other.id : null;
    if (loaded.current?.mix === mix && loaded.current.id === id) return;
    mix.setB(id ? url : null);
    loaded.current = { mix, id };
  }, [mix, other, url]);

  // Once the comparison has lined B up with A (cross-correlation), B plays that much later or earlier.
  const offset = useDifferenceOffset(version.id, other?.id ?? null);
  useEffect(() => {
    mix?.setOffset(offset);
  }, [mix, offset, url]);

  useEffect(() => {
    mix?.setGains(playbackGains({ platform, match, a: version.loudness, b: other?.loudness ?? null }));
  }, [mix, platform, match, version.loudness, other]);

  const state = useSyncExternalStore(mix?.subscribe ?? noop, () => mix?.getState() ?? idle);
  return { mix, state, other, otherProject, pick, match, setMatch, platform, setPlatform };
}
