import WaveSurfer from 'wavesurfer.js';
import Minimap from 'wavesurfer.js/plugins/minimap';
import Regions, { type Region } from 'wavesurfer.js/plugins/regions';
import Timeline from 'wavesurfer.js/plugins/timeline';
import { PLAYER } from '@mixroom/shared';
import type { PeaksFile } from './api';

export interface PlayerState {
  ready: boolean;
  playing: boolean;
  currentTime: number;
  duration: number;
  volume: number;
  muted: boolean;
  rate: number;
  zoom: number;
  loop: boolean;
  /** The span looped when looping is on (a range draft or the range comment last opened). */
  loopRange: { start: number; end: number } | null;
  error: string | null;
  /** The drawn waveform's full width and scroll position, for overlays that follow zoom and scroll. */
  layout: { width: number; scroll: number };
}

/** A player before anything happened: at 0, full volume, normal speed, fit to width. */
export function initialPlayerState(duration: number): PlayerState {
  return {
    ready: false,
    playing: false,
    currentTime: 0,
    duration,
    volume: 1,
    muted: false,
    rate: 1,
    zoom: 0,
    loop: false,
    loopRange: null,
    error: null,
    layout: { width: 0, scroll: 0 },
  };
}

const COLORS = {
  wave: '#8b7bd8',
  progress: '#c9b8ff',
  cursor: '#ffffff',
  waveOverSpectrogram: 'rgba(255,255,255,0.35)',
  progressOverSpectrogram: 'rgba(255,255,255,0.7)',
};

type PeakLevel = PeaksFile['levels'][number];

/** The coarsest of the server's peak levels that still has a bar per pixel at this zoom. */
export function chooseLevel(file: PeaksFile, pxPerSecond: number): PeakLevel {
  const perSecond = (level: PeakLevel) => file.sampleRate / level.samplesPerPeak;
  const sorted = [...file.levels].sort((a, b) => perSecond(a) - perSecond(b));
  return sorted.find((l) => perSecond(l) >= pxPerSecond) ?? sorted[sorted.length - 1]!;
}

/** One level as the floats wavesurfer draws (never the audio). */
function decodeLevel(level: PeakLevel): Float32Array {
  const bytes = Uint8Array.from(atob(level.data), (c) => c.charCodeAt(0));
  const out = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]! / 255;
  return out;
}

/**
 * Owns one wavesurfer instance drawn from server peaks, streaming its audio through an <audio>
 * element (Range requests), and exposes its state to React as an external store.
 */
export class PlayerController {
  readonly media: HTMLAudioElement;
  private readonly ws: WaveSurfer;
  private readonly regions: ReturnType<typeof Regions.create>;
  private state: PlayerState;
  private readonly listeners = new Set<() => void>();
  private level: PeakLevel | null = null;
  private draftRegion: Region | null = null;
  private frame = 0;

  constructor(
    container: HTMLElement,
    private readonly peaks: PeaksFile,
    streamUrl: string,
    options: { minimap: HTMLElement; timeline: HTMLElement; onDraftChange: (range: { start: number; end: number }) => void },
  ) {
    this.media = new Audio();
    this.media.preload = 'metadata';
    // Lets the peak meter read samples when the store is on another origin (S3).
    this.media.crossOrigin = 'anonymous';
    this.regions = Regions.create();
    const duration = peaks.durationSeconds;
    this.state = initialPlayerState(duration);
    this.ws = WaveSurfer.create({
      container,
      media: this.media,
      height: PLAYER.spectrogramHeight,
      waveColor: COLORS.wave,
      progressColor: COLORS.progress,
      cursorColor: COLORS.cursor,
      cursorWidth: 2,
      barWidth: 2,
      barGap: 1,
      barRadius: 1,
      normalize: true,
      dragToSeek: true,
      autoScroll: true,
      autoCenter: true,
      plugins: [
        Minimap.create({
          container: options.minimap,
          height: PLAYER.minimapHeight,
          waveColor: '#5f53a0',
          progressColor: '#a898f0',
          overlayColor: 'rgba(255,255,255,0.12)',
        }),
        Timeline.create({ container: options.timeline, height: 18, style: { color: '#a9a3c9', fontSize: '11px' } }),
        this.regions,
      ],
    });
    this.regions.on('region-updated', (region) => {
      if (region === this.draftRegion) options.onDraftChange({ start: region.start, end: region.end });
    });
    this.ws.on('ready', () => this.set({ ready: true }));
    // Benchmarks and RUM read this mark: navigation start → first complete waveform.
    this.ws.once('redrawcomplete', () => performance.mark('mixroom:waveform-drawn'));
    for (const event of ['redraw', 'zoom', 'scroll', 'resize'] as const) this.ws.on(event, () => this.measure());
    this.ws.on('play', () => this.set({ playing: true }));
    this.ws.on('pause', () => this.set({ playing: false }));
    this.ws.on('finish', () => this.set({ playing: false }));
    this.ws.on('timeupdate', (time) => this.onTime(time));
    this.media.addEventListener('error', () => this.set({ error: this.media.error?.message || 'The audio could not be loaded.' }));
    this.media.addEventListener('canplay', () => this.set({ ready: true }), { once: true });
    void this.ws.load(streamUrl, [this.useLevel(this.fitPxPerSecond(container.clientWidth))!], duration).catch(() => undefined);
  }

  /** Zoom 0 fits the file to the width: a 20-second sketch needs finer peaks than an hour. */
  private fitPxPerSecond(width: number): number {
    return width / Math.max(this.peaks.durationSeconds, 1);
  }

  /** Switches to the level this zoom needs; null when the current one already is. */
  private useLevel(pxPerSecond: number): Float32Array | null {
    const level = chooseLevel(this.peaks, pxPerSecond);
    if (level === this.level) return null;
    this.level = level;
    return decodeLevel(level);
  }

  // Time updates arrive at ~60 Hz while playing; React hears them once per frame at most.
  private onTime(time: number): void {
    const range = this.state.loop ? this.state.loopRange : null;
    if (range && this.state.playing && time >= range.end) {
      this.ws.setTime(range.start);
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.set({ currentTime: this.ws.getCurrentTime() });
    });
  }

  // The waveform lives in wavesurfer's shadow DOM; overlays in the page mirror its geometry.
  private measure(): void {
    const width = this.ws.getWrapper().clientWidth;
    const scroll = this.ws.getScroll();
    if (width !== this.state.layout.width || scroll !== this.state.layout.scroll) this.set({ layout: { width, scroll } });
  }

  private set(patch: Partial<PlayerState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = () => this.state;

  async playPause(): Promise<void> {
    if (this.ws.isPlaying()) return this.ws.pause();
    const range = this.state.loop ? this.state.loopRange : null;
    if (range && (this.ws.getCurrentTime() < range.start || this.ws.getCurrentTime() >= range.end)) this.ws.setTime(range.start);
    await this.ws.play().catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.set({ error: error instanceof Error ? error.message : String(error) });
    });
  }

  seek(time: number): void {
    const clamped = Math.min(Math.max(0, time), this.state.duration);
    this.ws.setTime(clamped);
    this.set({ currentTime: clamped });
  }

  skip(seconds: number): void {
    this.seek(this.ws.getCurrentTime() + seconds);
  }

  setVolume(volume: number): void {
    this.ws.setVolume(volume);
    this.set({ volume, muted: volume === 0 ? this.state.muted : false });
    if (volume > 0 && this.state.muted) this.setMuted(false);
  }

  setMuted(muted: boolean): void {
    this.ws.setMuted(muted);
    this.set({ muted });
  }

  setRate(rate: number): void {
    this.ws.setPlaybackRate(rate, true);
    this.set({ rate });
  }

  /** Zoom 0 fits the whole file; each step adds 5 pixels per second. */
  setZoom(zoom: number): void {
    const pxPerSecond = zoom * PLAYER.zoomPxPerStep;
    const peaks = this.useLevel(pxPerSecond || this.fitPxPerSecond(this.ws.getWidth()));
    if (peaks) this.ws.setOptions({ peaks: [peaks], duration: this.peaks.durationSeconds });
    this.ws.zoom(pxPerSecond);
    this.set({ zoom });
  }

  setLoop(loop: boolean): void {
    this.set({ loop });
  }

  setLoopRange(range: { start: number; end: number } | null): void {
    this.set({ loopRange: range });
  }

  /** Draws the range draft as a region the user can drag and stretch; null removes it. */
  showDraftRange(range: { start: number; end: number } | null): void {
    if (!range) {
      this.draftRegion?.remove();
      this.draftRegion = null;
      return;
    }
    if (this.draftRegion) return this.draftRegion.setOptions({ start: range.start, end: range.end });
    this.draftRegion = this.regions.addRegion({ start: range.start, end: range.end, color: 'rgba(255, 196, 0, 0.25)', drag: true, resize: true });
  }

  setSpectrogram(on: boolean): void {
    this.ws.setOptions({
      waveColor: on ? COLORS.waveOverSpectrogram : COLORS.wave,
      progressColor: on ? COLORS.progressOverSpectrogram : COLORS.progress,
    });
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.ws.destroy();
    this.media.removeAttribute('src');
    this.media.load();
  }
}
