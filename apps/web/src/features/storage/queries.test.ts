import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { GroupItem, Listing, ProjectItem, Version } from '@mixroom/contracts';
import {
  applyVersionProgress,
  listedProject,
  replaceListedProject,
  storageKeys,
  type ListingPages,
  type ProjectDetail,
} from './queries';

const caps = {
  canView: true,
  canEdit: true,
  canDelete: true,
  canCreate: true,
  canDownload: true,
  canShare: true,
  canManageUsers: true,
};
const person = { id: '00000000-0000-4000-8000-000000000001', displayName: 'Ana', photoUrl: null };
const at = '2026-11-24T06:00:00.000Z';

function version(id: string, projectId: string, patch: Partial<Version> = {}): Version {
  return {
    id,
    projectId,
    number: 1,
    name: id,
    fileName: `${id}.wav`,
    fileExtension: 'wav',
    fileSize: 1000,
    status: 'ready',
    progress: 100,
    error: null,
    durationSeconds: 3,
    media: null,
    loudness: null,
    hasThumbnail: true,
    approval: 'none',
    thumbnailUrl: `http://mixroom.test/api/blob/get?k=projects/${projectId}/${id}/waveform.png`,
    createdAt: at,
    ...patch,
  };
}

function project(id: string, latest: Version | null): ProjectItem {
  const base = {
    id,
    name: id,
    color: null,
    flag: 'NONE' as const,
    createdAt: at,
    updatedAt: at,
    publisher: person,
    tag: 'owner' as const,
    capabilities: caps,
  };
  return {
    ...base,
    kind: 'project',
    type: 'AUDIO',
    groupId: null,
    size: 1000,
    latestExtension: 'wav',
    enableDownload: true,
    versionCount: 1,
    latestVersion: latest,
  };
}

const folder = (id: string): GroupItem => ({
  id,
  name: id,
  color: null,
  flag: 'NONE',
  createdAt: at,
  updatedAt: at,
  publisher: person,
  tag: 'owner',
  capabilities: caps,
  kind: 'group',
  parentId: null,
});

const page = (items: Listing['items'], nextOffset: number | null): Listing => ({
  group: null,
  breadcrumb: [],
  capabilities: caps,
  items,
  total: 4,
  nextOffset,
});

/** Two listing pages: a folder and a ready project, then a processing project and another ready one. */
function seeded() {
  const queryClient = new QueryClient();
  const processing = project(
    'p2',
    version('v2', 'p2', { status: 'processing', progress: 10, thumbnailUrl: null, hasThumbnail: false }),
  );
  const listing: ListingPages = {
    pages: [
      page([folder('g1'), project('p1', version('v1', 'p1'))], 2),
      page([processing, project('p3', version('v3', 'p3'))], null),
    ],
    pageParams: [0, 2],
  };
  const key = storageKeys.listing(null, { sort: 'alphabetical', owner: 'all', kind: 'all' });
  queryClient.setQueryData(key, listing);
  const fetchDetail = vi.fn<(id: string) => Promise<ProjectDetail>>();
  const read = () => queryClient.getQueryData<ListingPages>(key)!;
  return { queryClient, listing, read, fetchDetail };
}

const tick = (progress: number, status: Version['status'] = 'processing') => ({
  projectId: 'p2',
  versionId: 'v2',
  progress,
  status,
});

describe('processing progress in the query cache', () => {
  it('patches the listed version in place and leaves every other page, item and thumbnail URL as it was', () => {
    const { queryClient, listing, read, fetchDetail } = seeded();
    applyVersionProgress(queryClient, tick(45), fetchDetail);
    const after = read();
    expect(listedProject(after, 'p2')?.latestVersion).toMatchObject({ progress: 45, status: 'processing' });
    expect(after.pages[0]).toBe(listing.pages[0]);
    expect(after.pages[1]!.items[1]).toBe(listing.pages[1]!.items[1]);
    expect(fetchDetail).not.toHaveBeenCalled();
    expect(queryClient.isFetching()).toBe(0);
  });

  it('ignores ticks of projects no listing holds, and ticks of a version that is not the listed one', () => {
    const { queryClient, listing, read, fetchDetail } = seeded();
    applyVersionProgress(
      queryClient,
      { projectId: 'elsewhere', versionId: 'vx', progress: 50, status: 'processing' },
      fetchDetail,
    );
    applyVersionProgress(
      queryClient,
      { projectId: 'p1', versionId: 'old', progress: 50, status: 'processing' },
      fetchDetail,
    );
    expect(read()).toBe(listing);
    expect(fetchDetail).not.toHaveBeenCalled();
  });

  it('fetches the project once when its version becomes ready, and shows the thumbnail it brings', async () => {
    const { queryClient, read, fetchDetail } = seeded();
    const ready = version('v2', 'p2', { progress: 95 });
    fetchDetail.mockResolvedValue({ project: project('p2', ready), versions: [ready], attachmentCount: 0 });
    applyVersionProgress(queryClient, tick(95, 'ready'), fetchDetail);
    expect(listedProject(read(), 'p2')?.latestVersion?.status).toBe('ready');
    await vi.waitFor(() => expect(listedProject(read(), 'p2')?.latestVersion?.thumbnailUrl).toBe(ready.thumbnailUrl));
    // Loudness lands later (100 %): the tile already has its thumbnail, nothing is fetched for it.
    applyVersionProgress(queryClient, tick(100, 'ready'), fetchDetail);
    expect(listedProject(read(), 'p2')?.latestVersion).toMatchObject({
      progress: 100,
      thumbnailUrl: ready.thumbnailUrl,
    });
    expect(fetchDetail).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData<ProjectDetail>(storageKeys.project('p2'))?.versions[0]?.progress).toBe(100);
  });

  it('fetches a corrupt version once too, to show its error', async () => {
    const { queryClient, read, fetchDetail } = seeded();
    const corrupt = version('v2', 'p2', {
      status: 'corrupt',
      error: 'Unreadable file',
      thumbnailUrl: null,
      hasThumbnail: false,
    });
    fetchDetail.mockResolvedValue({ project: project('p2', corrupt), versions: [corrupt], attachmentCount: 0 });
    applyVersionProgress(queryClient, tick(100, 'corrupt'), fetchDetail);
    await vi.waitFor(() => expect(listedProject(read(), 'p2')?.latestVersion?.error).toBe('Unreadable file'));
    expect(fetchDetail).toHaveBeenCalledTimes(1);
  });

  it('keeps progress that arrived while the fetched project was on its way', () => {
    const { listing } = seeded();
    const patched: ListingPages = {
      ...listing,
      pages: [
        listing.pages[0]!,
        page([project('p2', version('v2', 'p2', { progress: 100 })), listing.pages[1]!.items[1]!], null),
      ],
    };
    const replaced = replaceListedProject(patched, project('p2', version('v2', 'p2', { progress: 95 })));
    expect(listedProject(replaced, 'p2')?.latestVersion?.progress).toBe(100);
  });

  it('patches a cached project detail: its versions and its latest version', () => {
    const { queryClient, fetchDetail } = seeded();
    const processing = version('v2', 'p2', { status: 'processing', progress: 10 });
    queryClient.setQueryData<ProjectDetail>(storageKeys.project('p2'), {
      project: project('p2', processing),
      versions: [processing],
      attachmentCount: 0,
    });
    applyVersionProgress(queryClient, tick(60), fetchDetail);
    const detail = queryClient.getQueryData<ProjectDetail>(storageKeys.project('p2'))!;
    expect(detail.versions[0]?.progress).toBe(60);
    expect(detail.project.latestVersion?.progress).toBe(60);
  });
});
