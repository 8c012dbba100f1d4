import { creditEndpoints } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const getMyCredits = (page: { before?: number | undefined; limit: number }, signal?: AbortSignal) =>
  call(creditEndpoints.mine, { query: page, signal });
