import { STEMS_OF_MODE, type StemMode, type StemName } from '../processor';

/**
 * Maps a model's stems onto Mixroom's. Each Mixroom stem is a sum of model stems, possibly with
 * the mixture, computed per chunk in the time domain (all linear, so it commutes with the
 * cross-fade):
 * - a model stem named vocals, drums, bass or other is that stem; `accompaniment`, `instrumental`
 *   and `no_vocals` name the vocals' complement; any other name (piano, guitar…) adds to `other`;
 * - vocals missing but a complement present: vocals = mixture − complement;
 * - no_vocals: the model's complement if it has one; else the sum of its non-vocal stems when they
 *   include `other` (or a stem folded into it), so the stems add up as the model meant; else
 *   mixture − vocals (a vocals-only model);
 * - other missing while vocals, drums and bass are present: mixture − their sum;
 * - a stem that cannot be made (drums from a two-stem model) is left out of the output.
 */

export interface StemRecipe {
  stem: StemName;
  /** 1 when the mixture is added (for a difference), else 0. */
  mixture: 0 | 1;
  /** Model stem indices and their signs. */
  terms: { index: number; sign: 1 | -1 }[];
}

const COMPLEMENT = new Set(['accompaniment', 'instrumental', 'no_vocals']);
const OWN = new Set(['vocals', 'drums', 'bass', 'other']);

export function stemRecipes(modelStems: readonly string[], mode: StemMode): StemRecipe[] {
  const indexOf = (name: string) => modelStems.indexOf(name);
  const complement = modelStems.findIndex((name) => COMPLEMENT.has(name));
  const extras = modelStems.flatMap((name, index) => (OWN.has(name) || COMPLEMENT.has(name) ? [] : [index]));
  const plus = (indices: number[]) => indices.map((index) => ({ index, sign: 1 as const }));
  const minus = (indices: number[]) => indices.map((index) => ({ index, sign: -1 as const }));
  const present = (name: string) => (indexOf(name) >= 0 ? [indexOf(name)] : []);

  const recipes = new Map<StemName, StemRecipe>();
  const vocals = indexOf('vocals');
  if (vocals >= 0) recipes.set('vocals', { stem: 'vocals', mixture: 0, terms: plus([vocals]) });
  else if (complement >= 0) recipes.set('vocals', { stem: 'vocals', mixture: 1, terms: minus([complement]) });

  for (const name of ['drums', 'bass'] as const) {
    if (indexOf(name) >= 0) recipes.set(name, { stem: name, mixture: 0, terms: plus([indexOf(name)]) });
  }
  const otherParts = [...present('other'), ...extras];
  if (otherParts.length > 0) recipes.set('other', { stem: 'other', mixture: 0, terms: plus(otherParts) });
  else if (vocals >= 0 && indexOf('drums') >= 0 && indexOf('bass') >= 0) {
    recipes.set('other', { stem: 'other', mixture: 1, terms: minus([vocals, indexOf('drums'), indexOf('bass')]) });
  }

  if (complement >= 0) recipes.set('no_vocals', { stem: 'no_vocals', mixture: 0, terms: plus([complement]) });
  else if (otherParts.length > 0 && vocals >= 0) {
    const nonVocal = [...present('drums'), ...present('bass'), ...otherParts];
    recipes.set('no_vocals', { stem: 'no_vocals', mixture: 0, terms: plus(nonVocal) });
  } else if (vocals >= 0) recipes.set('no_vocals', { stem: 'no_vocals', mixture: 1, terms: minus([vocals]) });

  return STEMS_OF_MODE[mode].flatMap((stem) => recipes.get(stem) ?? []);
}

/** Applies a recipe to one chunk: planar channels of the mixture and of every model stem. */
export function mixStem(recipe: StemRecipe, mixture: Float32Array[], stems: Float32Array[][]): Float32Array[] {
  return mixture.map((mixChannel, c) => {
    const out = recipe.mixture === 1 ? Float32Array.from(mixChannel) : new Float32Array(mixChannel.length);
    for (const { index, sign } of recipe.terms) {
      const source = stems[index]![c]!;
      for (let i = 0; i < out.length; i++) out[i]! += sign * source[i]!;
    }
    return out;
  });
}
