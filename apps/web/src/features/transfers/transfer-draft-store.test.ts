import { describe, expect, it } from 'vitest';
import type { PickedFile } from '../uploads/walk-drop';
import { splitDraftFiles, stillMissing } from './transfer-draft-store';

const picked = (relativePath: string, size: number): PickedFile => ({
  file: new File([new Uint8Array(size)], relativePath.split('/').pop() ?? relativePath),
  relativePath,
});

describe('a transfer kept through the sign-in', () => {
  it('keeps the files themselves up to the limit, and only their names beyond it', () => {
    const files = [picked('Album/01 Intro.wav', 600), picked('Album/02 Song.wav', 400)];
    expect(splitDraftFiles(files, 1000)).toEqual({ kept: files, missing: [] });
    expect(splitDraftFiles(files, 999)).toEqual({
      kept: [],
      missing: [
        { relativePath: 'Album/01 Intro.wav', size: 600 },
        { relativePath: 'Album/02 Song.wav', size: 400 },
      ],
    });
  });

  it('crosses a file off the list when one of that name and size is chosen again, alone or with its folder', () => {
    const missing = [
      { relativePath: 'Album/01 Intro.wav', size: 600 },
      { relativePath: 'Album/Stems/kick.wav', size: 10 },
      { relativePath: 'notes.txt', size: 5 },
    ];
    expect(stillMissing(missing, [picked('01 Intro.wav', 600), picked('Album/Stems/kick.wav', 10)])).toEqual([
      { relativePath: 'notes.txt', size: 5 },
    ]);
    // Same name, another size: not the same file.
    expect(stillMissing(missing, [picked('notes.txt', 6)])).toEqual(missing);
  });
});
