import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditPeriod } from '@mixroom/shared';
import type { LiveModule } from '../src/modules/live/live.module';
import type { TestClock } from '../src/platform/clock/clock';
import { startClockedServer } from './helpers/clocked-server';
import { liveApi, liveUser, roomOf, sessionOf, type LiveUser } from './helpers/live';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

const MINUTE = 60_000;
let server: TestServer & { clock: TestClock };
let host: LiveUser;

beforeAll(async () => {
  server = await startClockedServer();
  host = await liveUser(server, 'free-time-host');
}, 60_000);
afterAll(() => server?.close());

describe('a free session’s time', () => {
  it('counts every minute a clock moved at once passed, tells the room what is left, and ends at 30', async () => {
    const { repository } = (server.context.modules.find((m) => m.name === 'live') as LiveModule).services;
    const { hostCode, guestCode } = roomOf(await liveApi(server, host).rooms());
    expect(sessionOf(await liveApi(server, host).start(hostCode)).remainingMs).toBe(30 * MINUTE);
    const socket = await connectRealtime(server.url);
    await socket.auth(host.token);
    await socket.subscribe(`live:${guestCode}`);
    const told = (action: 'tick' | 'expired', remainingMs: number) =>
      waitFor(
        () =>
          socket
            .events()
            .find(
              (e) =>
                e.type === 'live.changed' &&
                e.data.code === guestCode &&
                e.data.action === action &&
                e.data.remainingMs === remainingMs,
            ),
        { what: `${action} with ${remainingMs / MINUTE} minutes left` },
      );
    const usage = () => repository.usage(host.id, creditPeriod(server.clock.now()));

    // Five minutes in one move: five steps, not one (the page's FREE TIME LEFT says 25:00).
    server.clock.advance(5 * MINUTE);
    await told('tick', 25 * MINUTE);
    expect(sessionOf(await liveApi(server, host).get(guestCode)).remainingMs).toBe(25 * MINUTE);
    expect(await usage()).toBe(5 * MINUTE);

    // Steps stay on the session's own minutes: half a minute more, then the rest of the sixth.
    server.clock.advance(MINUTE / 2);
    server.clock.advance(MINUTE / 2);
    await told('tick', 24 * MINUTE);
    expect((await repository.session(guestCode))?.elapsedMs).toBe(6 * MINUTE);

    // Far past the end in one move: it ends at 30 minutes, counted once.
    server.clock.advance(40 * MINUTE);
    await told('expired', 0);
    await waitFor(async () => (await repository.session(guestCode))?.status === 'expired');
    expect((await repository.session(guestCode))?.elapsedMs).toBe(30 * MINUTE);
    await waitFor(async () => (await usage()) >= 30 * MINUTE, { what: '30 live minutes this month' });
    expect(await usage()).toBe(30 * MINUTE);
    socket.close();
  });
});
