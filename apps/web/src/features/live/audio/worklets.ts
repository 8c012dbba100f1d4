import processorsUrl from './live-processors.js?url&no-inline';

/**
 * The AudioWorklet processors (`live-processors.js`, emitted by Vite as a same-origin asset: the
 * page's CSP allows scripts from 'self' only, so a Blob URL would be refused).
 *
 * - `mixroom-ring-player`: plays PCM frames posted on its port (planar Float32 per channel) from a
 *   ring buffer of one second; it starts after `targetMs` are buffered and drops the oldest audio
 *   when more than three times that is waiting, so latency stays bounded when the bridge runs fast.
 * - `mixroom-recorder`: posts what it hears, per channel, in blocks of 4096 frames while recording.
 */

const loaded = new WeakMap<BaseAudioContext, Promise<void>>();

/** Adds the module to a context once. */
export function loadWorklets(context: BaseAudioContext): Promise<void> {
  let promise = loaded.get(context);
  if (!promise) {
    promise = context.audioWorklet.addModule(processorsUrl);
    loaded.set(context, promise);
  }
  return promise;
}
