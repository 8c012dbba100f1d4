/**
 * The optional post-filter of spectrogram models: a ratio-of-power-estimates soft mask (the
 * initialisation of Norbert/Open-Unmix's Wiener filter, without its EM iterations). Each stem's
 * estimated magnitude v_j becomes the mask v_j^p / Σ_k v_k^p applied to the mixture, so the stems
 * add up to the mixture and keep its phase.
 *
 * We chose it over multichannel EM because it is local to one time-frequency point: it gives the
 * same result whether a file is processed whole or in chunks, whereas EM estimates each stem's
 * spatial covariance over the frames it sees, so chunk boundaries would change the result.
 */

/** Below this total power a point is treated as silent: the stems share it equally. */
const SILENT = 1e-20;

/**
 * Turns magnitude estimates into masks in place. `estimates[j]` holds stem j's magnitudes, all of
 * one length and layout; `power` 2 is the Wiener gain, 1 a magnitude ratio.
 */
export function softMasksInPlace(estimates: Float32Array[], power: 1 | 2): void {
  const stems = estimates.length;
  const length = estimates[0]?.length ?? 0;
  for (let i = 0; i < length; i++) {
    let total = 0;
    for (let j = 0; j < stems; j++) {
      const v = Math.abs(estimates[j]![i]!);
      total += power === 2 ? v * v : v;
    }
    for (let j = 0; j < stems; j++) {
      const v = Math.abs(estimates[j]![i]!);
      estimates[j]![i] = total > SILENT ? (power === 2 ? v * v : v) / total : 1 / stems;
    }
  }
}
