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
/**
 * Drift the silent side is nudged back from by its playback rate, and past which it seeks. A media
 * element's clock moves in render quanta (128 frames, 2.7 ms at 48 kHz): the tolerance spans two,
 * so the rate is not nudged on the clock's own steps (each rate change jolts the reported time).
 */
const DRIFT = { tolerance: 0.006, seek: 0.25, seekLead: 0.05, maxNudge: 0.12, gain: 5, everyMs: 50 } as const;

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
  /**
   * How much later B's audio starts than A's (a pre-roll, a bounce shifted by a few samples): B
   * plays at A's time plus this, so the same bar is heard on both sides.
   */
  private offset = 0;

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
      media.currentTime = this.bTimeAt(a.currentTime);
      void media.play().catch(() => undefined);
    };
    const onPause = () => {
      media.pause();
      media.currentTime = this.bTimeAt(a.currentTime);
    };
    const onSeeked = () => {
      if (this.ownSeek) {
        this.ownSeek = false;
        return;
      }
      const target = this.bTimeAt(a.currentTime);
      if (Math.abs(media.currentTime - target) > DRIFT.tolerance) media.currentTime = target;
    };
    const onReady = () => {
      media.currentTime = this.bTimeAt(a.currentTime);
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

  private bTimeAt(aTime: number): number {
    return Math.max(0, aTime + this.offset);
  }

  /**
   * Lines B up with A by the offset the comparison found (seconds B starts later; 0 when unknown).
   * No seek: the silent side is nudged there by the sync loop, so nothing heard jumps.
   */
  setOffset(seconds: number): void {
    this.offset = seconds;
  }

  /** The offset B is played at, for tests and benchmarks. */
  get offsetSeconds(): number {
    return this.offset;
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
    if (!b || this.media.paused || b.ended || this.bTimeAt(this.media.currentTime) >= b.duration) return;
    // Both clocks on A's timeline: B's time less the offset it was lined up by.
    const aTime = this.media.currentTime;
    const bTime = b.currentTime - this.offset;
    const aHeard = this.state.active === 'A';
    const [heard, silent] = aHeard ? [this.media, b] : [b, this.media];
    const rate = this.rate();
    if (heard.playbackRate !== rate) heard.playbackRate = rate;
    const drift = aHeard ? bTime - aTime : aTime - bTime;
    if (Math.abs(drift) > DRIFT.seek) {
      const lead = DRIFT.seekLead * rate;
      if (aHeard) b.currentTime = this.bTimeAt(aTime + lead);
      else {
        this.ownSeek = true;
        this.media.currentTime = Math.max(0, bTime + lead);
      }
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
