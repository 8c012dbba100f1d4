/**
 * One animation-frame loop for every live meter on the page, at most METER_HZ times a second. Each
 * meter with its own loop at the display's rate cost the room page a fifth of a core in style,
 * layout and paint (Chromium's own figures, six meters); a meter at 30 Hz looks as smooth and leaves
 * the main thread to the room.
 */
export const METER_HZ = 30;

type Draw = () => void;
const draws = new Set<Draw>();
let frame = 0;
let last = 0;

function tick(now: number): void {
  frame = 0;
  if (draws.size === 0) return;
  // A frame early by less than a few ms still counts: 60 Hz displays then give exactly 30 Hz.
  if (now - last >= 1000 / METER_HZ - 4) {
    last = now;
    for (const draw of draws) draw();
  }
  frame = requestAnimationFrame(tick);
}

/** Calls `draw` on the shared loop until the returned function is called. */
export function onMeterFrame(draw: Draw): () => void {
  draws.add(draw);
  if (!frame) frame = requestAnimationFrame(tick);
  return () => {
    draws.delete(draw);
    if (draws.size === 0 && frame) {
      cancelAnimationFrame(frame);
      frame = 0;
    }
  };
}
