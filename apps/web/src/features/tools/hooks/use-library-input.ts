import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useProject } from '../../storage/queries';
import type { ToolInput } from '../tool-input';

/**
 * The screen's input, preset from the library's "Separate stems" / "Try a voice"
 * (`?version={id}&project={id}`) until the user picks another: the version is named from its
 * project when the project is given.
 */
export function useToolInput() {
  const [params] = useSearchParams();
  const versionId = params.get('version');
  const projectId = params.get('project');
  const project = useProject(versionId ? projectId : null);
  // undefined: the user has not chosen yet, so the link's version stands.
  const [picked, setPicked] = useState<ToolInput | null | undefined>(undefined);

  const preset = useMemo<ToolInput | null>(() => {
    if (!versionId) return null;
    const version = project.data?.versions.find((v) => v.id === versionId);
    return {
      kind: 'version',
      versionId,
      projectId,
      name:
        version && project.data
          ? `${project.data.project.name} — v${version.number} ${version.fileName}`
          : 'Library version',
      durationSeconds: version?.durationSeconds ?? null,
    };
  }, [versionId, projectId, project.data]);

  return [picked === undefined ? preset : picked, setPicked] as const;
}
