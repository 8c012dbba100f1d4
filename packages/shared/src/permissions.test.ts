import { describe, expect, it } from 'vitest';
import { groupCapabilities, projectCapabilities, roleTag, strongestRole } from './permissions';

describe('roles', () => {
  it('takes the strongest of several roles', () => {
    expect(strongestRole('VIEWER', 'NONE')).toBe('VIEWER');
    expect(strongestRole('VIEWER', 'EDITOR', 'NONE')).toBe('EDITOR');
    expect(strongestRole('EDITOR', 'OWNER')).toBe('OWNER');
    expect(strongestRole()).toBe('NONE');
  });

  it('tags a tile owner, editor, or viewer — also without an entry', () => {
    expect(roleTag('OWNER')).toBe('owner');
    expect(roleTag('EDITOR')).toBe('editor');
    expect(roleTag('VIEWER')).toBe('viewer');
    expect(roleTag('NONE')).toBe('viewer');
  });
});

describe('group capabilities', () => {
  it('lets publisher and editors edit; only the publisher manages users', () => {
    expect(groupCapabilities('OWNER')).toMatchObject({
      canEdit: true,
      canDelete: true,
      canCreate: true,
      canShare: true,
      canManageUsers: true,
    });
    expect(groupCapabilities('EDITOR')).toMatchObject({ canEdit: true, canCreate: true, canManageUsers: false });
    expect(groupCapabilities('VIEWER')).toMatchObject({
      canView: true,
      canEdit: false,
      canCreate: false,
      canShare: false,
    });
    expect(groupCapabilities('NONE')).toMatchObject({ canView: false, canDownload: false });
  });
});

describe('project capabilities', () => {
  it('lets publisher and editors download; anyone with access when downloads are enabled', () => {
    expect(projectCapabilities('EDITOR', false).canDownload).toBe(true);
    expect(projectCapabilities('VIEWER', false).canDownload).toBe(false);
    expect(projectCapabilities('VIEWER', true).canDownload).toBe(true);
    expect(projectCapabilities('NONE', true).canDownload).toBe(false);
  });

  it('keeps deleting, creating versions and managing users as the spec splits them', () => {
    expect(projectCapabilities('EDITOR', false)).toMatchObject({
      canDelete: true,
      canCreate: true,
      canManageUsers: false,
    });
    expect(projectCapabilities('VIEWER', true)).toMatchObject({ canDelete: false, canCreate: false, canEdit: false });
    expect(projectCapabilities('OWNER', false).canManageUsers).toBe(true);
  });
});
