import { describe, expect, it } from 'vitest';
import { engineLabel, extensionProblem, failureText, figure, taskProgress } from './tools-rules';

const session = (
  status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED',
  progress: number,
  message: string | null = null,
) => ({ status, progress, message }) as never;

describe('tools rules', () => {
  it('labels engines honestly, without doubling a prefix the server already wrote', () => {
    expect(engineLabel({ id: 'b', kind: 'signal-processing', label: 'anything' })).toBe('built-in (signal processing)');
    expect(engineLabel({ id: 'v', kind: 'voice-preset', label: 'Roberto' })).toBe('voice preset Roberto');
    expect(engineLabel({ id: 'v', kind: 'voice-preset', label: 'voice preset (pitch)' })).toBe('voice preset (pitch)');
    expect(engineLabel({ id: 'o', kind: 'onnx-model', label: 'htdemucs' })).toBe('model: htdemucs');
    expect(engineLabel({ id: 'r', kind: 'remote', label: 'gpu-1' })).toBe('remote: gpu-1');
  });

  it('spreads progress over the stages, and knows nothing before one starts', () => {
    expect(taskProgress({ status: 'PENDING', sessions: [session('PENDING', -1)] })).toBeNull();
    expect(taskProgress({ status: 'RUNNING', sessions: [session('RUNNING', 50)] })).toBe(50);
    expect(
      taskProgress({
        status: 'RUNNING',
        sessions: [session('COMPLETED', 100), session('RUNNING', 50), session('PENDING', -1)],
      }),
    ).toBe(50);
    expect(taskProgress({ status: 'COMPLETED', sessions: [] })).toBe(100);
  });

  it("tells a failure in the spec's words", () => {
    expect(
      failureText({ status: 'FAILED', sessions: [session('COMPLETED', 100), session('FAILED', 10, 'boom')] }),
    ).toBe('An error occurred while processing the task: boom');
    expect(failureText({ status: 'RUNNING', sessions: [] })).toBeNull();
  });

  it("refuses other extensions with the spec's text", () => {
    expect(extensionProblem('Mix.WAV')).toBeNull();
    expect(extensionProblem('notes.txt')).toBe(
      'File extension is not supported for this version, please use .mp3 .wav .ogg .flac .aac .m4a .opus',
    );
    expect(figure(65.4)).toBe('1:05');
    expect(figure(null)).toBe('—');
  });
});
