import type { VersionApproval } from '@mixroom/contracts';
import type { Notice } from '../../users';
import type { ProjectRow } from './projects.repository';

/** What the project's other users are told when a version's verdict changes. */
export function verdictNotice(
  by: string,
  project: ProjectRow,
  versionNumber: number,
  approval: VersionApproval,
): Notice {
  const what = `v${versionNumber} of “${project.name}”`;
  const body =
    approval === 'approved'
      ? `${by} approved ${what}.`
      : approval === 'needs_changes'
        ? `${by} asked for changes on ${what}.`
        : `${by} cleared the verdict on ${what}.`;
  return { title: 'Review', body, url: `/version/${project.id}/${versionNumber}` };
}
