import { PLAYER } from '@mixroom/shared';

/** Wheel notches to zoom: one mouse notch (100) scales the zoom by about 1.6. */
const WHEEL_ZOOM_RATE = 1 / 200;

/** The zoom a wheel turn leads to: proportional steps, from fit-to-width (0) to the slider's maximum. */
export function nextWheelZoom(zoom: number, deltaY: number): number {
  if (deltaY === 0) return zoom;
  if (zoom === 0) return deltaY < 0 ? 1 : 0;
  const next = zoom * Math.exp(-deltaY * WHEEL_ZOOM_RATE);
  if (next < 1) return 0;
  return Math.min(PLAYER.zoomMax, next);
}
