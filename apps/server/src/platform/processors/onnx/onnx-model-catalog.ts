import { access, readdir } from 'node:fs/promises';
import { type ProcessorEngine } from '../processor';
import { type OnnxManifest, OnnxModelError, onnxModelFiles, readOnnxManifest } from './onnx-manifest';
import { onnxEngine, OnnxSeparator, type OnnxSeparatorOptions } from './onnx-separator';

export interface OnnxModelEntry {
  name: string;
  engine: ProcessorEngine;
  manifest: OnnxManifest;
}

export interface OnnxModelListing {
  /** Models whose manifest is valid and whose .onnx file is present (not yet loaded). */
  models: OnnxModelEntry[];
  /** Every file that could not be used, with the reason (for the operator's log and admin page). */
  problems: OnnxModelError[];
}

/**
 * The models an operator put in one folder: each `<name>.json` manifest with its `<name>.onnx`.
 * Listing reads only the manifests; a model's session is created when its separator first runs.
 */
export class OnnxModelCatalog {
  private readonly separators = new Map<string, OnnxSeparator>();

  constructor(
    readonly folder: string,
    private readonly options: OnnxSeparatorOptions = {},
  ) {}

  async list(): Promise<OnnxModelListing> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      const reason = `cannot be listed (${(error as Error).message})`;
      return { models: [], problems: [new OnnxModelError(this.folder, [{ field: '', message: reason }])] };
    }
    const base = (file: string, ext: string) => (file.endsWith(ext) ? file.slice(0, -ext.length) : null);
    const manifests = names.flatMap((file) => base(file, '.json') ?? []).sort();
    const models: OnnxModelEntry[] = [];
    const problems: OnnxModelError[] = [];
    for (const name of manifests) {
      try {
        const manifest = await readOnnxManifest(this.folder, name);
        const { model } = onnxModelFiles(this.folder, name);
        await access(model).catch(() => {
          throw new OnnxModelError(model, [{ field: '', message: `is missing (its manifest is ${name}.json)` }]);
        });
        models.push({ name, engine: onnxEngine(name), manifest });
      } catch (error) {
        if (!(error instanceof OnnxModelError)) throw error;
        problems.push(error);
      }
    }
    for (const orphan of names.flatMap((file) => base(file, '.onnx') ?? [])) {
      if (!manifests.includes(orphan)) {
        const { model } = onnxModelFiles(this.folder, orphan);
        problems.push(new OnnxModelError(model, [{ field: '', message: `has no manifest ${orphan}.json beside it` }]));
      }
    }
    return { models, problems };
  }

  /** The separator of one model, shared by every caller so its session is loaded once. */
  separator(name: string): OnnxSeparator {
    let separator = this.separators.get(name);
    if (!separator) {
      separator = new OnnxSeparator(this.folder, name, this.options);
      this.separators.set(name, separator);
    }
    return separator;
  }

  /** Releases every loaded session (at shutdown). */
  async close(): Promise<void> {
    const separators = [...this.separators.values()];
    this.separators.clear();
    await Promise.all(separators.map((separator) => separator.close()));
  }
}
