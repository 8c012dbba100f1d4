import { dbToGain } from './playback-gain';
import { graphFor, mixBus, rampGain, type MediaGraph } from './audio-graph';

export type Side = 'A' | 'B';

export interface CompareState {
  active: Side;
  /** B can play from where A is (its metadata and first data are in). */
  bReady: boolean;
  gains: { a: number; b: number };
}

/** Long enough to never click, short enough to hear as instant. */
const CROSSFADE_SECONDS = 0.012;
/** Drift the silent side is nudged back from by its playback rate, and past which it seeks. */
const DRIFT = { tolerance: 0.003, seek: 0.25, seekLead: 0.05, maxNudge: 0.12, gain: 5, everyMs: 50 } as const;

/**
 * Plays a version (A, the player's own media) and a second one (B) side by side: both run all the
 * time in sync on one AudioContext, only the active one is audible, so switching is two short
 * gain ramps at the same playhead: no seek, no buffering, no gap. The silent side follows the
 * audible one by its playback rate (a seek only when far off), so its timing never wobbles what
 * is heard. Also carries the playback gain (platform preview, loudness match) of each side.
 */
export class PlaybackMix {
  private readonly a: MediaGraph;
  private b: { media: HTMLAudioElement; graph: MediaGraph; stop: () => void } | null = null;
  private state: CompareState = { active: 'A', bReady: false, gains: { a: 0, b: 0 } };
  private readonly listeners = new Set<() => void>();
  private timer = 0;
  /** A seek of A made here to keep it with B: not the user's, so B must not follow it. */
  private ownSeek = false;

  /** `rate` is the speed the user chose: the media elements' own rates are nudged here. */
  constructor(
    private readonly media: HTMLMediaElement,
    private readonly rate: () => number,
  ) {
    this.a = graphFor(media);
    void this.a.context.resume();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = () => this.state;

  private set(patch: Partial<CompareState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The second version to compare with (null ends the comparison and A plays alone again). */
  setB(url: string | null): void {
    this.b?.stop();
    this.b = null;
    this.set({ bReady: false });
    if (this.state.active === 'B') this.switchTo('A');
    if (!url) return;
    const media = new Audio();
    media.crossOrigin = 'anonymous';
    media.preload = 'auto';
    media.src = url;
    const graph = graphFor(media);
    graph.gain.gain.value = 0;
    const a = this.media;
    const follow = () => {
      media.volume = a.volume;
      media.muted = a.muted;
    };
    const onPlay = () => {
      media.currentTime = a.currentTime;
      void media.play().catch(() => undefined);
    };
    const onPause = () => {
      media.pause();
      media.currentTime = a.currentTime;
    };
    const onSeeked = () => {
      if (this.ownSeek) {
        this.ownSeek = false;
        return;
      }
      if (Math.abs(media.currentTime - a.currentTime) > DRIFT.tolerance) media.currentTime = a.currentTime;
    };
    const onReady = () => {
      media.currentTime = a.currentTime;
      if (!a.paused) void media.play().catch(() => undefined);
      this.set({ bReady: true });
    };
    a.addEventListener('play', onPlay);
    a.addEventListener('pause', onPause);
    a.addEventListener('seeked', onSeeked);
    a.addEventListener('volumechange', follow);
    media.addEventListener('canplay', onReady, { once: true });
    follow();
    media.load();
    this.b = {
      media,
      graph,
      stop: () => {
        a.removeEventListener('play', onPlay);
        a.removeEventListener('pause', onPause);
        a.removeEventListener('seeked', onSeeked);
        a.removeEventListener('volumechange', follow);
        media.pause();
        media.removeAttribute('src');
        media.load();
      },
    };
    this.applyGains(0);
    if (!this.timer) this.timer = window.setInterval(() => this.keepInSync(), DRIFT.everyMs);
  }

  /** What is heard (both sides after their gains), for benchmarks that listen to the switch. */
  get output(): AudioNode {
    return mixBus().bus;
  }

  /** The second media element, for tests and benchmarks that read its clock. */
  get bMedia(): HTMLAudioElement | null {
    return this.b?.media ?? null;
  }

  /** Makes `side` the one heard, at the same playhead. */
  switchTo(side: Side): void {
    if (side === 'B' && !this.b) return;
    if (side === this.state.active) return;
    this.set({ active: side });
    // The side now heard plays at the chosen speed at once; the other one is nudged from now on.
    const heard = side === 'A' ? this.media : this.b?.media;
    if (heard) heard.playbackRate = this.rate();
    this.applyGains(CROSSFADE_SECONDS);
  }

  toggle(): void {
    this.switchTo(this.state.active === 'A' ? 'B' : 'A');
  }

  setGains(gains: { a: number; b: number }): void {
    if (gains.a === this.state.gains.a && gains.b === this.state.gains.b) return;
    this.set({ gains });
    this.applyGains(CROSSFADE_SECONDS);
  }

  private applyGains(seconds: number): void {
    const { active, gains } = this.state;
    rampGain(this.a, active === 'A' ? dbToGain(gains.a) : 0, seconds);
    if (this.b) rampGain(this.b.graph, active === 'B' ? dbToGain(gains.b) : 0, seconds);
  }

  /**
   * Nudges the silent side toward the audible one by a touch of playback rate (inaudible: it is
   * silent); only a large gap (a stall) is closed by a seek, a little ahead to cover its latency.
   */
  private keepInSync(): void {
    const b = this.b?.media;
    if (!b || this.media.paused || b.ended || this.media.currentTime >= b.duration) return;
    const [heard, silent] = this.state.active === 'A' ? [this.media, b] : [b, this.media];
    const rate = this.rate();
    if (heard.playbackRate !== rate) heard.playbackRate = rate;
    const drift = silent.currentTime - heard.currentTime;
    if (Math.abs(drift) > DRIFT.seek) {
      if (silent === this.media) this.ownSeek = true;
      silent.currentTime = heard.currentTime + DRIFT.seekLead * rate;
      return;
    }
    if (Math.abs(drift) <= DRIFT.tolerance) {
      if (silent.playbackRate !== rate) silent.playbackRate = rate;
      return;
    }
    const nudge = Math.max(-DRIFT.maxNudge, Math.min(DRIFT.maxNudge, drift * DRIFT.gain));
    silent.playbackRate = rate * (1 - nudge);
  }

  destroy(): void {
    window.clearInterval(this.timer);
    this.b?.stop();
    this.b = null;
    // A keeps its graph (a media element cannot leave one): it goes back to full, unchanged gain.
    this.media.playbackRate = this.rate();
    rampGain(this.a, 1, CROSSFADE_SECONDS);
  }
}
