import { talkbackEndpoints as endpoints, type TalkbackSlots, type TalkbackToken } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const talkbackApi = {
  token: (code: string, mode: 'publish' | 'subscribe'): Promise<TalkbackToken> =>
    call(endpoints.token, { params: { code }, body: { mode } }),
  /** The slot map of one's own WHEP resource; its bearer is the talkback token, not the session's. */
  slots: async (grant: TalkbackToken, resourceId: string): Promise<TalkbackSlots | null> => {
    const response = await fetch(`${new URL(grant.url, window.location.href).pathname}/${resourceId}`, {
      headers: { authorization: `Bearer ${grant.token}` },
    });
    return response.ok ? ((await response.json()) as TalkbackSlots) : null;
  },
};
