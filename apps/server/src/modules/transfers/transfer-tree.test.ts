import { describe, expect, it } from 'vitest';
import { FOLDER_TREE_LIMITS, FOLDER_TREE_MESSAGES } from '@mixroom/shared';
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

  it('turns a name of dots and spaces into _', () => {
    expect(folderSegments('. ./y')).toEqual(['_', 'y']);
  });

  it('refuses a path deeper than the limit, however deep, without recursing on it', () => {
    const deep = Array.from({ length: 20_000 }, (_, i) => `f${i}`).join('/');
    expect(() => planFolders('root', [deep])).toThrow(FOLDER_TREE_MESSAGES.tooDeep);
    const limit = Array.from({ length: FOLDER_TREE_LIMITS.depthMax }, () => 'f').join('/');
    expect(planFolders('root', [limit]).folders).toHaveLength(FOLDER_TREE_LIMITS.depthMax);
  });

  it('refuses more folders than one request may create', () => {
    const paths = Array.from({ length: 80 }, (_, i) => Array.from({ length: 30 }, (_, j) => `b${i}-${j}`).join('/'));
    expect(() => planFolders('root', paths)).toThrow(FOLDER_TREE_MESSAGES.tooMany);
    expect(planFolders('root', paths.slice(0, 10)).folders).toHaveLength(300);
  });
});
