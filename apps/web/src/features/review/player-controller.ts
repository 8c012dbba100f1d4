import WaveSurfer from 'wavesurfer.js';
import Minimap from 'wavesurfer.js/plugins/minimap';
import Regions, { type Region } from 'wavesurfer.js/plugins/regions';
import { PLAYER } from '@mixroom/shared';
import type { PeaksFile } from './api';
import { barHeights, PeakLevels } from './peak-levels';
import { nextWheelZoom } from './wheel-zoom';

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
  /** The drawn waveform's full width, scroll position and visible width, for overlays that follow it. */
  layout: { width: number; scroll: number; viewport: number };
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
    layout: { width: 0, scroll: 0, viewport: 0 },
  };
}

const COLORS = {
  wave: '#8b7bd8',
  progress: '#c9b8ff',
  cursor: '#ffffff',
};

/** Bars are 2 px wide with a 1 px gap, as wavesurfer lays its canvases out for them. */
const BAR = { width: 2, gap: 1 };
/**
 * Owns one wavesurfer instance drawn from server peaks, streaming its audio through an <audio>
 * element (Range requests), and exposes its state to React as an external store.
 */
export class PlayerController {
  readonly media: HTMLAudioElement;
  private readonly ws: WaveSurfer;
  private readonly regions: ReturnType<typeof Regions.create>;
  private readonly levels: PeakLevels;
  private state: PlayerState;
  private readonly listeners = new Set<() => void>();
  private draftRegion: Region | null = null;
  private frame = 0;
  /** The stream URL in use, a fresher one waiting, and a recovery under way (see renewSource). */
  private source: string;
  private nextSource: string | null = null;
  private recovering: { at: number; playing: boolean; failed: string } | null = null;

  constructor(
    private readonly container: HTMLElement,
    peaks: PeaksFile,
    streamUrl: string,
    private readonly options: {
      minimap: HTMLElement;
      onDraftChange: (range: { start: number; end: number }) => void;
      /** The stream URL stopped working (signed URLs live minutes): a fresh one, or null if none. */
      onSourceExpired?: () => Promise<string | null>;
    },
  ) {
    this.source = streamUrl;
    this.media = new Audio();
    this.media.preload = 'metadata';
    // Lets the peak meter read samples when the store is on another origin (S3).
    this.media.crossOrigin = 'anonymous';
    this.regions = Regions.create();
    this.levels = new PeakLevels(peaks);
    const duration = peaks.durationSeconds;
    this.state = initialPlayerState(duration);
    // Wavesurfer holds only the coarsest level (its minimap draws from it); the main view draws
    // its bars itself from whichever level the zoom needs.
    const coarse = Float32Array.from(this.levels.coarsest().bins, (v) => v / 255);
    this.ws = WaveSurfer.create({
      container,
      media: this.media,
      height: PLAYER.spectrogramHeight,
      waveColor: COLORS.wave,
      progressColor: COLORS.progress,
      cursorColor: COLORS.cursor,
      cursorWidth: 2,
      barWidth: BAR.width,
      barGap: BAR.gap,
      renderFunction: (_peaks, ctx) => this.drawBars(ctx),
      dragToSeek: true,
      autoScroll: true,
      autoCenter: true,
      plugins: [
        Minimap.create({
          container: options.minimap,
          height: PLAYER.minimapHeight,
          waveColor: '#6f62b8',
          progressColor: '#b3a4f5',
          overlayColor: 'rgba(255,255,255,0.14)',
          barWidth: 1,
          barGap: 1,
          normalize: true,
        }),
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
    this.media.addEventListener('error', () => this.onMediaError());
    this.media.addEventListener('canplay', () => this.set({ ready: true }), { once: true });
    container.addEventListener('wheel', this.onWheel, { passive: false });
    void this.ws.load(streamUrl, [coarse], duration).catch(() => undefined);
  }

  /**
   * Draws one of wavesurfer's canvases from the level this zoom needs: the canvas knows where it
   * sits in the whole waveform, so a zoomed hour reads the same bins per bar as a short sketch.
   */
  private drawBars(ctx: CanvasRenderingContext2D): void {
    const canvas = ctx.canvas;
    const cssWidth = parseFloat(canvas.style.width) || canvas.width;
    const offset = parseFloat(canvas.style.left) || 0;
    const total = this.ws.getWrapper().clientWidth || cssWidth;
    const pxPerSecond = total / this.state.duration;
    const scale = canvas.width / cssWidth;
    const stride = BAR.width + BAR.gap;
    const level = this.levels.forDensity(pxPerSecond / stride);
    const count = Math.ceil(cssWidth / stride);
    const heights = barHeights(level, this.levels.loudest, offset / pxPerSecond, stride / pxPerSecond, count);
    const middle = canvas.height / 2;
    ctx.beginPath();
    for (let bar = 0; bar < count; bar++) {
      const half = Math.max(0.5 * scale, heights[bar]! * middle);
      ctx.rect(Math.round(bar * stride * scale), middle - half, BAR.width * scale, half * 2);
    }
    ctx.fill();
    // Read-only, for tests and support: how many peaks a second of audio the drawn bars come from.
    this.container.dataset.peaksPerSecond = String(level.perSecond);
  }

  /**
   * The wheel scrolls a zoomed waveform sideways (trackpads send deltaX, mice deltaY); with Ctrl
   * (which is also how browsers report a trackpad pinch) it zooms around the pointer.
   */
  private onWheel = (event: WheelEvent): void => {
    const unit =
      event.deltaMode === WheelEvent.DOM_DELTA_LINE
        ? 16
        : event.deltaMode === WheelEvent.DOM_DELTA_PAGE
          ? this.ws.getWidth()
          : 1;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      const x = event.clientX - this.container.getBoundingClientRect().left;
      this.zoomAround(nextWheelZoom(this.state.zoom, event.deltaY * unit), x);
      return;
    }
    if (this.state.zoom === 0) return;
    const delta = (Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.deltaY) * unit;
    if (!delta) return;
    event.preventDefault();
    this.ws.setScroll(this.ws.getScroll() + delta);
  };

  /** Zooms keeping the moment under `x` (pixels from the view's left edge) in place. */
  private zoomAround(zoom: number, x: number): void {
    if (zoom === this.state.zoom) return;
    const before = this.ws.getWrapper().clientWidth / this.state.duration;
    const at = (this.ws.getScroll() + x) / before;
    this.setZoom(zoom);
    const after = this.ws.getWrapper().clientWidth / this.state.duration;
    this.ws.setScroll(Math.max(0, at * after - x));
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
    const viewport = this.ws.getWidth();
    const { layout } = this.state;
    if (width !== layout.width || scroll !== layout.scroll || viewport !== layout.viewport)
      this.set({ layout: { width, scroll, viewport } });
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
    if (range && (this.ws.getCurrentTime() < range.start || this.ws.getCurrentTime() >= range.end))
      this.ws.setTime(range.start);
    await this.ws.play().catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.set({ error: error instanceof Error ? error.message : String(error) });
    });
  }

  seek(time: number): void {
    const clamped = Math.min(Math.max(0, time), this.state.duration);
    // wavesurfer defers a seek made while the media buffers after an earlier one, then drops it when
    // that earlier seek's event arrives: L pressed twice quickly would move once. A media element
    // takes a seek as soon as it knows its duration; wavesurfer follows its timeupdate.
    if (this.media.readyState >= HTMLMediaElement.HAVE_METADATA) this.media.currentTime = clamped;
    else this.ws.setTime(clamped);
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
    this.ws.zoom(zoom * PLAYER.zoomPxPerStep);
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
    this.draftRegion = this.regions.addRegion({
      start: range.start,
      end: range.end,
      color: 'rgba(255, 196, 0, 0.25)',
      drag: true,
      resize: true,
    });
  }

  /**
   * A signed stream URL expires after a few minutes; the browser notices at its next range request
   * and the media element fails. The first failure after playback worked is taken as that: the
   * player keeps its place, asks for a fresh URL, and carries on from the same time (playing if it
   * was). A failure with a fresh URL, before anything played, or answered with the URL that failed
   * (it had not expired) is a real error.
   */
  private onMediaError(): void {
    if (!this.recovering && this.state.ready && this.media.error?.code !== MediaError.MEDIA_ERR_ABORTED) {
      this.recovering = { at: this.state.currentTime, playing: this.state.playing, failed: this.source };
      if (this.nextSource) this.swapSource();
      else void this.askForFreshSource();
      return;
    }
    this.fail(this.media.error?.message);
  }

  /** The answer is handed over here, whether or not the page passes it on as a new `streamUrl` too. */
  private async askForFreshSource(): Promise<void> {
    const url = this.options.onSourceExpired ? await this.options.onSourceExpired().catch(() => null) : null;
    if (!this.recovering) return;
    if (url) this.renewSource(url);
    else this.fail();
  }

  private fail(message?: string): void {
    this.recovering = null;
    this.set({ error: message || 'The audio could not be loaded.' });
  }

  /**
   * A fresh URL for the same audio: used at once when recovering, else kept for the next failure.
   * It may arrive twice (the page's new `streamUrl` and the answer to askForFreshSource).
   */
  renewSource(url: string): void {
    if (url === this.source) {
      if (this.recovering?.failed === url) this.fail();
      return;
    }
    this.nextSource = url;
    if (this.recovering?.failed === this.source) this.swapSource();
  }

  private swapSource(): void {
    const url = this.nextSource;
    const resume = this.recovering ?? { at: this.media.currentTime, playing: !this.media.paused };
    if (!url) return;
    this.source = url;
    this.nextSource = null;
    this.media.addEventListener(
      'loadedmetadata',
      () => {
        this.media.currentTime = resume.at;
        this.recovering = null;
        if (resume.playing) void this.media.play().catch(() => undefined);
      },
      { once: true },
    );
    this.media.src = url;
    this.media.load();
  }

  destroy(): void {
    this.recovering = null;
    cancelAnimationFrame(this.frame);
    this.container.removeEventListener('wheel', this.onWheel);
    this.ws.destroy();
    this.media.removeAttribute('src');
    this.media.load();
  }
}
