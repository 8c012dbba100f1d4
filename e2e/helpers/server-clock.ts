import { TestClock } from '../../apps/server/src/platform/clock/clock';
import { startTestServer, type TestServer } from '../../apps/server/test/helpers/test-server';

/**
 * A server whose clock stands `behindMs` behind the wall clock until the journey moves it on.
 *
 * For journeys that move the server's clock far while pages stay signed in: the embedded provider
 * stamps access tokens with the wall clock and the server judges them by its own. A clock that
 * starts behind may be moved on by up to `behindMs` with every token the pages hold or renew still
 * good (moved past the wall clock, a renewed token would already be expired for the server, its
 * requests refused and its socket closed).
 */
export async function startServerBehindWallClock(behindMs: number): Promise<TestServer & { clock: TestClock }> {
  const clock = new TestClock(new Date(Date.now() - behindMs));
  return Object.assign(await startTestServer({}, { clock }), { clock });
}
