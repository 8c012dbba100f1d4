import { userEndpoints } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const getMe = (signal?: AbortSignal) => call(userEndpoints.me, { signal });
