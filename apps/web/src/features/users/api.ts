import type { Me } from '@mixroom/contracts';
import { api } from '../../lib/api-client';

export const getMe = (signal?: AbortSignal) => api<Me>('/api/me', signal ? { signal } : {});
