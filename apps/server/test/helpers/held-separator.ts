import type { ToolsModule } from '../../src/modules/tools/tools.module';
import { WavFloatReader } from '../../src/platform/processors/audio/wav-float-file';
import { BuiltinSeparator } from '../../src/platform/processors/builtin/builtin-separator';
import type { SeparationInput, SeparationOutput, Separator } from '../../src/platform/processors/processor';
import type { TestServer } from './test-server';

/**
 * The built-in separator in 1 s chunks, held mid-run once `holdAfter` frames are finished, after
 * the stage has taken its preview of them (the stage's own `onPartial` is awaited first); it keeps
 * the stems it finally wrote, for comparisons. The hold is the tests' hook into a running stage:
 * nothing sleeps, the stage simply goes on at `release`.
 */
export class HeldSeparator implements Separator {
  private readonly inner = new BuiltinSeparator({ chunkSeconds: 1 });
  readonly engine = this.inner.engine;
  held = false;
  final: Record<string, Float32Array[]> = {};
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly holdAfter: number) {}

  release(): void {
    this.open();
  }

  async separate(input: SeparationInput): Promise<SeparationOutput> {
    const output = await this.inner.separate({
      ...input,
      onPartial: async (partial) => {
        await input.onPartial?.(partial);
        if (partial.frames < this.holdAfter) return;
        this.held = true;
        await this.gate;
      },
    });
    for (const [stem, path] of Object.entries(output.stems)) {
      const reader = await WavFloatReader.open(path);
      this.final[stem] = await reader.read(0, reader.frames);
      await reader.close();
    }
    return output;
  }
}

/**
 * Puts a separator in place of the server's configured one (the tools module's processors are
 * what its stages read); answers the function that puts the original back.
 */
export function useSeparator(server: TestServer, separator: Separator): () => void {
  const tools = server.context.modules.find((m) => m.name === 'tools') as ToolsModule | undefined;
  if (!tools) throw new Error('this server runs no tools module');
  const { processors } = tools.services;
  const original = processors.separator;
  processors.separator = separator;
  return () => {
    processors.separator = original;
  };
}
