import { useQuery } from '@tanstack/react-query';
import type { Connector } from '@mixroom/contracts';
import { getConnectors } from '../../connectors/api';
import { connectorKeys } from '../../connectors/queries';

const NONE: Connector[] = [];

/**
 * The user's linked storage accounts, for "From linked storage" (the connectors' own query and
 * cache); none for a visitor, who is not asked.
 */
export function useLinkedAccounts(enabled: boolean): Connector[] {
  const query = useQuery({
    queryKey: connectorKeys.list(),
    queryFn: ({ signal }) => getConnectors(signal),
    enabled,
  });
  return enabled ? (query.data?.linked ?? NONE) : NONE;
}
