import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CreateTaskBody, ToolsOverview, VoiceId } from '@mixroom/contracts';
import { TOOLS_MESSAGES, TOOLS_SUBSCRIPTIONS_ROUTE, type StemMode, type ToolKind } from '@mixroom/shared';
import { ApiError } from '../../../lib/api-client';
import { toolsApi } from '../api';
import { useCreateTask } from '../queries';
import { alertDialog, busyAlert, errorAlert, noCreditsDialog } from '../tool-dialogs';
import type { ToolInput } from '../tool-input';
import { localDuration } from '../tools-rules';

export type ToolChoice = { tool: 'stems'; mode: StemMode } | { tool: 'revoice'; voice: VoiceId };

/**
 * Process: the spec's refusals first (a task running, too few credits, audio too long), then the
 * file's upload with its progress, then the task; the server checks all of it again and its
 * refusals show the same dialogs. Success opens the task history.
 */
export function useProcessTask(tool: ToolKind, overview: ToolsOverview | undefined) {
  const navigate = useNavigate();
  const create = useCreateTask();
  const [progress, setProgress] = useState<number | null>(null);
  const [working, setWorking] = useState(false);
  // A file already sent is not sent again when the task is refused and Process is pressed again.
  const uploaded = useRef<{ file: File; uploadId: string } | null>(null);

  const refuse = (error: unknown) => {
    if (!(error instanceof ApiError)) return errorAlert();
    if (error.code === 'TASKS_RUNNING') return busyAlert();
    if (error.code === 'NOT_ENOUGH_CREDITS') return noCreditsDialog(() => void navigate(TOOLS_SUBSCRIPTIONS_ROUTE));
    if (error.code === 'AUDIO_TOO_LONG') return errorAlert(TOOLS_MESSAGES.tooLong(tool));
    if (error.code === 'LINK_FAILED') return errorAlert(TOOLS_MESSAGES.linkFailed);
    if (error.code === 'EXTENSION_NOT_SUPPORTED') return alertDialog(TOOLS_MESSAGES.extensionTitle, error.message);
    return errorAlert(error.message);
  };

  const run = async (input: ToolInput, choice: ToolChoice) => {
    if (working) return;
    if (overview?.busy) return busyAlert();
    if (overview && !overview.credits.canAfford) return noCreditsDialog(() => void navigate(TOOLS_SUBSCRIPTIONS_ROUTE));
    const max = overview?.maxSeconds[tool];
    const seconds =
      input.kind === 'file' ? await localDuration(input.file) : input.kind === 'version' ? input.durationSeconds : null;
    // The browser may not read every format's duration: the server decides those.
    if (max && seconds !== null && seconds > max) return errorAlert(TOOLS_MESSAGES.tooLong(tool));
    setWorking(true);
    try {
      let source: CreateTaskBody['input'];
      if (input.kind === 'file') {
        if (uploaded.current?.file !== input.file) {
          setProgress(0);
          const uploadId = await toolsApi.uploadInput(input.file, ({ sentBytes, totalBytes }) =>
            setProgress(totalBytes ? Math.floor((sentBytes / totalBytes) * 100) : 100),
          );
          uploaded.current = { file: input.file, uploadId };
        }
        source = { uploadId: uploaded.current.uploadId };
      } else if (input.kind === 'version') source = { versionId: input.versionId };
      else if (input.kind === 'linked') source = { connectorId: input.connectorId, path: input.path };
      else source = { url: input.url };
      await create.mutateAsync(
        choice.tool === 'stems'
          ? { tool: 'stems', mode: choice.mode, input: source }
          : { tool: 'revoice', voice: choice.voice, input: source },
      );
      uploaded.current = null;
      void navigate('/tools/history');
    } catch (error) {
      refuse(error);
    } finally {
      setWorking(false);
      setProgress(null);
    }
  };

  return { run, progress, working };
}
