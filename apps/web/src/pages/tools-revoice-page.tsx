import { Text } from '@mantine/core';
import { useState } from 'react';
import type { VoiceId } from '@mixroom/contracts';
import { ToolScreen } from '../features/tools/components/tool-screen';
import { VoiceCards } from '../features/tools/components/voice-cards';
import { useToolInput } from '../features/tools/hooks/use-library-input';
import { useProcessTask } from '../features/tools/hooks/use-process-task';
import { useToolsOverview } from '../features/tools/queries';
import { useMe } from '../features/users/queries';
import { toolsLinkedPicker } from './tools-linked-picker';

/** /tools/revoice: the voice in one audio file replaced with one of six voice presets. */
export function ToolsRevoicePage() {
  const overview = useToolsOverview().data;
  const remaining = useMe().data?.entitlements.credits.balance;
  const [input, setInput] = useToolInput();
  const [voice, setVoice] = useState<VoiceId>('roberto');
  const process = useProcessTask('revoice', overview);
  return (
    <ToolScreen
      title="Voice Conversion"
      description="Replace the voice in one audio file with one of six voices. The voice is separated from the music, converted, given light delay and reverb, and mixed back."
      overview={overview}
      remaining={remaining}
      input={input}
      onInput={setInput}
      progress={process.progress}
      working={process.working}
      engine="voice"
      onReset={() => {
        setInput(null);
        setVoice('roberto');
      }}
      linkedPicker={toolsLinkedPicker}
      onProcess={() => input && void process.run(input, { tool: 'revoice', voice })}
    >
      <Text fw={500} size="sm" mb="xs">
        Voice
      </Text>
      <VoiceCards value={voice} onChange={setVoice} />
    </ToolScreen>
  );
}
