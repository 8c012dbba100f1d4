import { useParams } from 'react-router';
import { MissingItem } from '../components/missing-item';
import { VersionPage } from '../pages/version-page';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /version/{projectId}/{versionNumber}: an address that cannot name a version gets the not-found screen. */
export function VersionRoute() {
  const { projectId = '', versionNumber = '' } = useParams();
  if (!UUID.test(projectId) || !/^[1-9]\d{0,8}$/.test(versionNumber)) return <MissingItem kind="version" />;
  return <VersionPage />;
}
