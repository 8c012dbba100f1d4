import { describe, expect, it } from 'vitest';
import { folderSegments, planFolders } from './transfer-tree';

describe('a transfer folder tree', () => {
  it('makes one folder per distinct path prefix, parents first, paths from the root', () => {
    const { folders, folderOf } = planFolders('root', ['Album/Side A', 'Album/Side B', '', 'Album']);
    expect(folders.map((f) => f.relative)).toEqual(['Album', 'Album/Side A', 'Album/Side B']);
    const sideA = folderOf('Album/Side A');
    expect(sideA.path).toEqual(['root', folders[0]!.id, sideA.id]);
    expect(folderOf('').id).toBe('root');
  });

  it('drops empty, dot and dot-dot segments, whichever separator', () => {
    expect(folderSegments('../a//./b\\c/')).toEqual(['a', 'b', 'c']);
  });
});
