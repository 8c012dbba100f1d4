import { STEM_MODE_LABELS, type StemMode } from '@mixroom/shared';
import { useState } from 'react';
import { StemModes } from '../features/tools/components/stem-modes';
import { ToolScreen } from '../features/tools/components/tool-screen';
import { useToolInput } from '../features/tools/hooks/use-library-input';
import { useProcessTask } from '../features/tools/hooks/use-process-task';
import { useToolsOverview } from '../features/tools/queries';
import { useMe } from '../features/users/queries';
import { toolsLinkedPicker } from './tools-linked-picker';

/** /tools/stemseparation: one audio file split into two stems or five. */
export function ToolsStemSeparationPage() {
  const overview = useToolsOverview().data;
  const remaining = useMe().data?.entitlements.credits.balance;
  const [input, setInput] = useToolInput();
  const [mode, setMode] = useState<StemMode>('TWOSTEMS');
  const process = useProcessTask('stems', overview);
  return (
    <ToolScreen
      title="Stem Separation"
      description={`Split one audio file into stems: ${STEM_MODE_LABELS.TWOSTEMS}, or ${STEM_MODE_LABELS.EVERYTHING}.`}
      overview={overview}
      remaining={remaining}
      input={input}
      onInput={setInput}
      progress={process.progress}
      working={process.working}
      engine="separator"
      onReset={() => {
        setInput(null);
        setMode('TWOSTEMS');
      }}
      linkedPicker={toolsLinkedPicker}
      onProcess={() => input && void process.run(input, { tool: 'stems', mode })}
    >
      <StemModes value={mode} onChange={setMode} />
    </ToolScreen>
  );
}
