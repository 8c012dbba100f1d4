import { describe, expect, it } from 'vitest';
import { accepts, crumbsOf, folderOf, isChosen, movedIndex, searchTexts } from './folder-view-rules';

describe('the linked folder view', () => {
  it('highlights every file of a multi-pick, and only this account’s single pick otherwise', () => {
    const chosen = ['/Mixes/A.wav', '/Stems/B.wav'];
    expect(isChosen('/Mixes/A.wav', 'dav', { chosen, picked: null })).toBe(true);
    expect(isChosen('/Stems/B.wav', 'dav', { chosen, picked: null })).toBe(true);
    expect(isChosen('/Mixes/C.wav', 'dav', { chosen, picked: null })).toBe(false);
    // A multi-pick ignores a single pick; an empty one highlights nothing.
    const picked = { connectorId: 'dav', path: '/Mixes/C.wav' };
    expect(isChosen('/Mixes/C.wav', 'dav', { chosen: [], picked })).toBe(false);
    expect(isChosen('/Mixes/C.wav', 'dav', { picked })).toBe(true);
    expect(isChosen('/Mixes/C.wav', 's3', { picked })).toBe(false);
    expect(isChosen('/Mixes/C.wav', 'dav', { picked: null })).toBe(false);
  });

  it('names the folder a search hit is in, from the top', () => {
    expect(folderOf('/Sessions/Album/Take 1.wav')).toBe('/Sessions/Album');
    expect(folderOf('/Take 1.wav')).toBe('/');
    expect(crumbsOf(folderOf('/Sessions/Album/Take 1.wav'))).toEqual(['Sessions', 'Album']);
    expect(crumbsOf('/')).toEqual([]);
  });

  it('moves the focus with the arrow keys, Home and End, stopping at the ends', () => {
    expect(movedIndex('ArrowDown', 0, 3)).toBe(1);
    expect(movedIndex('ArrowDown', 2, 3)).toBe(2);
    expect(movedIndex('ArrowUp', 0, 3)).toBe(0);
    expect(movedIndex('ArrowUp', 2, 3)).toBe(1);
    expect(movedIndex('Home', 2, 3)).toBe(0);
    expect(movedIndex('End', 0, 3)).toBe(2);
    expect(movedIndex('Enter', 1, 3)).toBeNull();
    expect(movedIndex('ArrowDown', 0, 0)).toBeNull();
  });

  it('says how far a search goes: the whole account, or only the open folder', () => {
    expect(searchTexts(true, 'Google Drive')).toEqual({
      label: 'Search by name',
      placeholder: 'Search all of Google Drive by name',
      note: null,
    });
    const filter = searchTexts(false, 'S3-compatible bucket');
    expect(filter.placeholder).toBe('Filter this folder by name');
    expect(filter.note).toMatch(/offers no search here: only the names in this folder/);
  });

  it('lets only accepted extensions be picked, any file for a transfer', () => {
    expect(accepts(['wav', 'flac'], 'Take.WAV')).toBe(true);
    expect(accepts(['wav'], 'notes.txt')).toBe(false);
    expect(accepts(['wav'], 'README')).toBe(false);
    expect(accepts('any', 'notes.txt')).toBe(true);
  });
});
