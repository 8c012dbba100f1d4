import { ErrorResponse, User } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { renewalOf } from './renewal';

const failing = (error: Error) => ({ signinSilent: () => Promise.reject(error) });
const answering = (user: User | null) => ({ signinSilent: () => Promise.resolve(user) });

describe('renewalOf', () => {
  it('ends the session only when the provider refuses the refresh token', async () => {
    expect(await renewalOf(failing(new ErrorResponse({ error: 'invalid_grant' })))).toBe('refused');
    expect(await renewalOf(failing(new ErrorResponse({ error: 'login_required' })))).toBe('refused');
    expect(await renewalOf(answering(null))).toBe('refused');
  });

  it('tries again later when the answer was lost or the server failed', async () => {
    expect(await renewalOf(failing(new TypeError('Failed to fetch')))).toBe('unanswered');
    expect(await renewalOf(failing(new ErrorResponse({ error: 'server_error' })))).toBe('unanswered');
    expect(await renewalOf(failing(new Error('Bad Gateway')))).toBe('unanswered');
  });

  it('reports a renewal', async () => {
    const user = new User({
      access_token: 'a',
      token_type: 'Bearer',
      profile: { sub: 'u', iss: 'i', aud: 'c', exp: 0, iat: 0 },
    });
    expect(await renewalOf(answering(user))).toBe('renewed');
  });
});
