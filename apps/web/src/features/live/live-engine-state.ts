import { DEFAULT_LIVE_BITRATE } from '@mixroom/shared';
import type { LosslessListening } from './lossless-link';
import type { StreamState } from './streaming-client';

/** Where the published audio comes from: the browser's own input (default) or the bridge's sockets. */
export type LiveSourceKind = 'input' | 'plugin' | 'driver';

export interface EngineSnapshot {
  publishState: StreamState;
  viewState: StreamState;
  source: LiveSourceKind;
  inputDeviceId: string | null;
  bridgeConnected: Record<'plugin' | 'driver', boolean>;
  bitrate: number;
  recording: 'idle' | 'recording' | 'stopping';
  /** Whole seconds recorded so far (shown beside Stop Rec). */
  recordedSeconds: number;
  autoMute: boolean;
  muted: boolean;
  /** The mids of the received slots that carry a track. */
  slots: string[];
  /** Lossless mode asked for by this publisher (the top bar's toggle). */
  lossless: boolean;
  /** Whether the host's plan allows lossless mode; null until a publish grant has said. */
  losslessAllowed: boolean | null;
  /** Each lossless publisher this user hears: buffer depth, dropouts, whether it replaces Opus. */
  losslessIn: LosslessListening[];
  error: string | null;
}

/** Before anything connects: what the room shows until the engine exists. */
export const INITIAL_SNAPSHOT: EngineSnapshot = {
  publishState: 'new',
  viewState: 'new',
  source: 'input',
  inputDeviceId: null,
  bridgeConnected: { plugin: false, driver: false },
  bitrate: DEFAULT_LIVE_BITRATE,
  recording: 'idle',
  recordedSeconds: 0,
  autoMute: false,
  muted: false,
  slots: [],
  lossless: false,
  losslessAllowed: null,
  losslessIn: [],
  error: null,
};
