import type { AppConfig } from '../../config/config';
import type { MediaTools } from '../../platform/media/ffmpeg';
import { BuiltinSeparator } from '../../platform/processors/builtin/builtin-separator';
import { OnnxSeparator } from '../../platform/processors/onnx/onnx-separator';
import { BuiltinEffectsStage } from '../../platform/processors/presets/effects-stage';
import { PresetVoiceConverter } from '../../platform/processors/presets/voice-presets';
import type { EffectsStage, Separator, VoiceConverter } from '../../platform/processors/processor';
import { createRemoteProcessors } from '../../platform/processors/remote/remote-processor';

/** The processors a worker runs, as the operator configured them. */
export interface ToolProcessors {
  separator: Separator;
  voice: VoiceConverter;
  effects: EffectsStage;
}

/**
 * TOOLS_SEPARATOR picks the separator (built-in signal processing, an operator's ONNX model from
 * TOOLS_MODELS_DIR, or the remote GPU processor) and TOOLS_VOICE the voice conversion (presets or
 * remote). The effects stage is always the built-in one: it is plain signal processing.
 */
export function createToolProcessors(config: AppConfig['tools'], tools: MediaTools): ToolProcessors {
  const remote = config.remote ? createRemoteProcessors({ url: config.remote.url, token: config.remote.token }) : null;
  const needRemote = () => {
    // The configuration refuses remote without its URL and token; this keeps the types honest.
    if (!remote) throw new Error('TOOLS_REMOTE_URL and TOOLS_REMOTE_TOKEN are required for remote');
    return remote;
  };
  const separator: Separator =
    config.separator.kind === 'onnx'
      ? new OnnxSeparator(config.modelsDir, config.separator.model)
      : config.separator.kind === 'remote'
        ? needRemote().separator
        : new BuiltinSeparator();
  const voice: VoiceConverter =
    config.voice === 'remote' ? needRemote().voiceConverter : new PresetVoiceConverter(tools);
  return { separator, voice, effects: new BuiltinEffectsStage(tools) };
}
