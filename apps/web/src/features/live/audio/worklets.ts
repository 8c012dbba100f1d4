import losslessUrl from './lossless-processors.js?url&no-inline';
import processorsUrl from './live-processors.js?url&no-inline';

/**
 * The AudioWorklet processors (`live-processors.js` and `lossless-processors.js`, emitted by Vite as
 * same-origin assets: the page's CSP allows scripts from 'self' only, so a Blob URL would be refused).
 *
 * - `mixroom-ring-player`: plays PCM frames posted on its port (planar Float32 per channel) from a
 *   ring buffer of one second; it starts after `targetMs` are buffered and drops the oldest audio
 *   when more than three times that is waiting, so latency stays bounded when the bridge runs fast.
 * - `mixroom-recorder`: posts what it hears, per channel, in blocks of 4096 frames while recording.
 * - `mixroom-lossless-tap`: while started, posts its input as encoded lossless frames (10 ms).
 * - `mixroom-lossless-player`: plays encoded lossless frames posted on its port through a jitter
 *   buffer and posts its depth and dropouts every 250 ms.
 */

const loaded = new WeakMap<BaseAudioContext, Promise<void>>();

/** Adds the modules to a context once. */
export function loadWorklets(context: BaseAudioContext): Promise<void> {
  let promise = loaded.get(context);
  if (!promise) {
    promise = Promise.all([
      context.audioWorklet.addModule(processorsUrl),
      context.audioWorklet.addModule(losslessUrl),
    ]).then(() => undefined);
    loaded.set(context, promise);
  }
  return promise;
}
