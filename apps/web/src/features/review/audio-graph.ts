/**
 * One AudioContext for the review screen. Every media element that needs Web Audio (the peak
 * meter, A/B compare, platform preview) plays through its own gain into one bus, so switching
 * between A and B is two gain ramps on the same clock and the meter reads what is heard.
 */
interface Bus {
  context: AudioContext;
  bus: GainNode;
}

export interface MediaGraph {
  context: AudioContext;
  gain: GainNode;
}

let shared: Bus | null = null;
const graphs = new WeakMap<HTMLMediaElement, MediaGraph>();

export function mixBus(): Bus {
  if (shared) return shared;
  const context = new AudioContext({ latencyHint: 'interactive' });
  const bus = context.createGain();
  bus.connect(context.destination);
  shared = { context, bus };
  return shared;
}

/** A media element can feed only one Web Audio source, ever: its graph is built once. */
export function graphFor(media: HTMLMediaElement): MediaGraph {
  const existing = graphs.get(media);
  if (existing) return existing;
  const { context, bus } = mixBus();
  const source = context.createMediaElementSource(media);
  const gain = context.createGain();
  source.connect(gain).connect(bus);
  const graph = { context, gain };
  graphs.set(media, graph);
  return graph;
}

/** Whether a media element already plays through the bus. */
export const hasGraph = (media: HTMLMediaElement) => graphs.has(media);

/** Moves a gain to `value` over `seconds` from now: short ramps, so a change never clicks. */
export function rampGain(graph: MediaGraph, value: number, seconds: number): void {
  const now = graph.context.currentTime;
  const param = graph.gain.gain;
  param.cancelScheduledValues(now);
  param.setValueAtTime(param.value, now);
  param.linearRampToValueAtTime(value, now + seconds);
}
