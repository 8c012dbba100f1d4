import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  DAY_MS,
  LIVE_ERROR_CODES,
  LIVE_MESSAGES,
  LIVE_ROOM_CODE_ALPHABET,
  LIVE_TRIAL_MAX_MINUTES,
} from '@mixroom/shared';
import { billingSubscriptions, liveUsage } from '../src/db/schema';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { grantPlan, liveApi, liveUser, mediaOf, postOffer, roomOf, sessionOf, type LiveUser } from './helpers/live';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';
import type { LiveModule } from '../src/modules/live/live.module';
import type { TestClock } from '../src/platform/clock/clock';

let server: TestServer & { clock: TestClock };
let freeHost: LiveUser;
let studioHost: LiveUser;
let guests: LiveUser[];
let stranger: LiveUser;

beforeAll(async () => {
  server = await startClockedServer();
  const users = await Promise.all(
    ['free-host', 'studio-host', 'stranger', 'g1', 'g2', 'g3', 'g4', 'g5', 'g6'].map((n) => liveUser(server, n)),
  );
  [freeHost, studioHost, stranger] = [users[0]!, users[1]!, users[2]!];
  guests = users.slice(3);
  await grantPlan(server, studioHost.id, 'STUDIO', server.clock.now());
}, 60_000);
afterAll(() => server?.close());

const codesOf = async (user: LiveUser) => roomOf(await liveApi(server, user).rooms());
const whip = (code: string) => `${server.url}/api/live/${code}/whip`;

describe('room codes', () => {
  it('are created on first read, stay, carry 50 random bits, and a new one stops the old at once', async () => {
    const first = await codesOf(freeHost);
    expect(await codesOf(freeHost)).toEqual(first);
    for (const code of [first.hostCode, first.guestCode]) {
      expect(code).toHaveLength(10);
      expect([...code].every((c) => LIVE_ROOM_CODE_ALPHABET.includes(c))).toBe(true);
    }
    expect(first.roomCodes).toEqual([
      { role: 'host', code: first.hostCode },
      { role: 'guest', code: first.guestCode },
    ]);
    const renewed = roomOf(await liveApi(server, freeHost).regenerate('host'));
    expect(renewed.hostCode).not.toBe(first.hostCode);
    expect(renewed.guestCode).toBe(first.guestCode);
    const old = await liveApi(server, freeHost).start(first.hostCode);
    expect([old.status, old.body.error?.code]).toEqual([404, LIVE_ERROR_CODES.notStarted]);
    expect((await liveApi(server, freeHost).start(renewed.hostCode)).status).toBe(200);
    await liveApi(server, freeHost).leave(renewed.guestCode);
    // The admin area's private data shows the codes (and reading them there creates none).
    const { adminFacts } = (server.context.modules.find((m) => m.name === 'live') as LiveModule).services;
    expect(await adminFacts.roomCodes(freeHost.id)).toEqual(renewed.roomCodes);
    expect(await adminFacts.roomCodes(guests[5]!.id)).toEqual([]);
  });

  it('answer an unknown code, a removed code and a room not started alike', async () => {
    const removed = (await codesOf(stranger)).guestCode;
    await liveApi(server, stranger).regenerate('guest');
    const notStartedYet = (await codesOf(studioHost)).guestCode;
    const answers = await Promise.all(
      ['zzzzzzzzzz', removed, notStartedYet].map((code) => liveApi(server, guests[0]!).join(code)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    // A guest before the host: the spec's 'Live Session' alert text.
    expect(answers[2]!.body.error).toEqual({ code: LIVE_ERROR_CODES.notStarted, message: LIVE_MESSAGES.notStarted });
  });
});

describe('a session', () => {
  it('is started by the host, joined by guests up to the plan limit, and left', async () => {
    const { hostCode, guestCode } = await codesOf(freeHost);
    const started = sessionOf(await liveApi(server, freeHost).start(hostCode, 'host-tab'));
    expect(started).toMatchObject({
      code: guestCode,
      availability: 'ACTIVE',
      userId: freeHost.id,
      hostRoomCode: hostCode,
      maxDurationMs: 30 * 60_000,
      remainingMs: 30 * 60_000,
      guestLimit: 5,
      coHostAllowed: false,
      you: { role: 'host', canPublish: true, instanceId: 'host-tab' },
    });
    expect(started.liveUrl).toContain('/live/joined/{code}/guest');
    for (const guest of guests.slice(0, 5)) {
      const joined = sessionOf(await liveApi(server, guest).join(guestCode));
      expect(joined.you).toMatchObject({ role: 'guest', canPublish: false });
      expect(joined.hostRoomCode).toBeNull();
    }
    const full = await liveApi(server, guests[5]!).join(guestCode);
    expect([full.status, full.body.error?.message]).toEqual([409, LIVE_MESSAGES.roomFull]);
    expect((await liveApi(server, guests[0]!).leave(guestCode)).status).toBe(204);
    const after = sessionOf(await liveApi(server, freeHost).get(guestCode));
    expect(after.streams.map((s) => s.userId)).not.toContain(guests[0]!.id);
    expect(after.streams).toHaveLength(5);
    expect((await liveApi(server, guests[5]!).join(guestCode)).status).toBe(200);
    expect((await liveApi(server, guests[0]!).get(guestCode)).status).toBe(404);
  });

  it('lets a co-host publish only where the plan has bi-directional audio', async () => {
    const free = await codesOf(freeHost);
    const refused = await liveApi(server, freeHost).coHost(free.guestCode, guests[1]!.id, true);
    expect([refused.status, refused.body.error?.code]).toEqual([403, LIVE_ERROR_CODES.coHostNotInPlan]);
    const studio = await codesOf(studioHost);
    await liveApi(server, studioHost).start(studio.hostCode);
    await liveApi(server, guests[1]!).join(studio.guestCode);
    const before = await liveApi(server, guests[1]!).mediaToken(studio.guestCode, 'publish');
    expect([before.status, before.body.error?.code]).toEqual([403, LIVE_ERROR_CODES.notPublisher]);
    const notHost = await liveApi(server, guests[2]!).coHost(studio.guestCode, guests[1]!.id, true);
    expect(notHost.status).toBe(404);
    const enabled = sessionOf(await liveApi(server, studioHost).coHost(studio.guestCode, guests[1]!.id, true));
    expect(enabled.streams.find((s) => s.userId === guests[1]!.id)?.isEnabled).toBe(true);
    expect((await liveApi(server, guests[1]!).mediaToken(studio.guestCode, 'publish')).status).toBe(200);
    const quality = sessionOf(
      await liveApi(server, guests[1]!).stream(studio.guestCode, { bitrate: 320_000, source: 1 }),
    );
    expect(quality.you.role).toBe('cohost');
    expect(quality.streams.find((s) => s.userId === guests[1]!.id)).toMatchObject({ bitrate: 320_000, source: 1 });
    await liveApi(server, studioHost).coHost(studio.guestCode, guests[1]!.id, false);
    expect((await liveApi(server, guests[1]!).mediaToken(studio.guestCode, 'publish')).status).toBe(403);
  });

  it('hands a second tab of the same user the room and tells the first to clean up', async () => {
    const { guestCode } = await codesOf(studioHost);
    const socket = await connectRealtime(server.url);
    await socket.auth(guests[3]!.token);
    await liveApi(server, guests[3]!).join(guestCode, 'tab-a');
    expect(await socket.subscribe(`live:${guestCode}`)).toMatchObject({ type: 'subscribed' });
    await liveApi(server, guests[3]!).join(guestCode, 'tab-b');
    await waitFor(() =>
      socket
        .events()
        .find((e) => e.type === 'live.changed' && e.data.action === 'takeover' && e.data.instanceId === 'tab-b'),
    );
    // The older tab's leave changes nothing: the newer one holds the room.
    await liveApi(server, guests[3]!).leave(guestCode, 'tab-a');
    expect(sessionOf(await liveApi(server, guests[3]!).get(guestCode)).you.instanceId).toBe('tab-b');
    socket.close();
  });
});

describe('a participant who closes the tab', () => {
  it('goes offline after a minute away; a host gone that long ends the session', async () => {
    const host = await liveUser(server, 'leaving-host');
    const { hostCode, guestCode } = await codesOf(host);
    await liveApi(server, host).start(hostCode);
    await liveApi(server, guests[5]!).join(guestCode);
    const hostSocket = await connectRealtime(server.url);
    const guestSocket = await connectRealtime(server.url);
    await hostSocket.auth(host.token);
    await guestSocket.auth(guests[5]!.token);
    for (const socket of [hostSocket, guestSocket]) {
      await socket.subscribe(`live:${guestCode}`);
      socket.send({ type: 'presence.join', topic: `live:${guestCode}`, scope: 'room' });
      await waitFor(() => socket.messages.find((m) => m.type === 'presence' && m.scope === 'room'));
    }
    guestSocket.close();
    await waitFor(() => hostSocket.events().find((e) => e.type === 'presence.changed' && e.data.state === 'offline'));
    // The room hears of it over the bus; the minute is counted from then (moved until it has passed).
    await waitFor(async () => {
      server.clock.advance(61_000);
      return hostSocket
        .events()
        .find((e) => e.type === 'live.changed' && e.data.action === 'left' && e.data.userId === guests[5]!.id);
    });
    const seen = sessionOf(await liveApi(server, host).get(guestCode));
    expect(seen.streams.find((s) => s.userId === guests[5]!.id)?.isOnline).toBe(false);

    const watcher = await connectRealtime(server.url);
    await watcher.auth(guests[5]!.token);
    await watcher.subscribe(`live:${guestCode}`);
    hostSocket.close();
    // Within the minute nothing changes; gone for longer, the session ends.
    server.clock.advance(30_000);
    expect(sessionOf(await liveApi(server, host).get(guestCode)).availability).toBe('ACTIVE');
    await waitFor(async () => {
      server.clock.advance(31_000);
      return watcher.events().find((e) => e.type === 'live.changed' && e.data.action === 'ended');
    });
    expect(sessionOf(await liveApi(server, host).get(guestCode)).availability).toBe('EXPIRED');
    watcher.close();
  });
});

describe('media tokens', () => {
  it('allow what the role allows, in one room, for the session they were minted for', async () => {
    const studio = await codesOf(studioHost);
    const free = await codesOf(freeHost);
    await liveApi(server, studioHost).start(studio.hostCode);
    await liveApi(server, guests[4]!).join(studio.guestCode);
    await liveApi(server, guests[1]!).join(studio.guestCode);
    await liveApi(server, studioHost).coHost(studio.guestCode, guests[1]!.id, true);
    const hostPublish = mediaOf(await liveApi(server, studioHost).mediaToken(studio.guestCode, 'publish'));
    const coHostPublish = mediaOf(await liveApi(server, guests[1]!).mediaToken(studio.guestCode, 'publish'));
    const guestListen = mediaOf(await liveApi(server, guests[4]!).mediaToken(studio.guestCode, 'subscribe'));
    expect(hostPublish).toMatchObject({ mode: 'publish', lossless: true, bitrate: 128_000, slotCount: 8 });
    expect(hostPublish.url).toMatch(new RegExp(`/api/live/${studio.guestCode}/whip$`));
    expect(guestListen.url).toMatch(/\/whep$/);
    expect((await liveApi(server, guests[4]!).mediaToken(studio.guestCode, 'publish')).status).toBe(403);
    expect((await liveApi(server, stranger).mediaToken(studio.guestCode, 'subscribe')).status).toBe(404);
    expect((await liveApi(server, null).mediaToken(studio.guestCode, 'subscribe')).status).toBe(401);
    // Accepted tokens reach the SFU (which refuses a non-SDP offer with 400); refused ones never do.
    const offer = 'not an offer';
    expect((await postOffer(whip(studio.guestCode), hostPublish.token, offer)).status).toBe(400);
    expect((await postOffer(whip(studio.guestCode), coHostPublish.token, offer)).status).toBe(400);
    expect((await postOffer(whip(studio.guestCode), guestListen.token, offer)).status).toBe(403);
    expect((await postOffer(`${server.url}/api/live/${studio.guestCode}/whep`, hostPublish.token, offer)).status).toBe(
      403,
    );
    expect((await postOffer(whip(free.guestCode), hostPublish.token, offer)).status).toBe(403);
    expect((await postOffer(whip(studio.guestCode), null, offer)).status).toBe(401);
    expect((await postOffer(whip(studio.guestCode), 'forged.token', offer)).status).toBe(401);
    // A co-host disabled after minting is refused at the door.
    await liveApi(server, studioHost).coHost(studio.guestCode, guests[1]!.id, false);
    expect((await postOffer(whip(studio.guestCode), coHostPublish.token, offer)).status).toBe(403);
  });
});

describe('a Live-plan trial', () => {
  it('caps sessions at what is left of its 1000 broadcast minutes, then refuses', async () => {
    const trialist = await liveUser(server, 'trialist');
    const { db } = server.context.database;
    const now = server.clock.now();
    await db.insert(billingSubscriptions).values({
      externalId: 'trial-1',
      userId: trialist.id,
      shopSku: 'LIVE_BASIC',
      sku: 'LIVE_BASIC',
      interval: 'month',
      status: 'active',
      trial: true,
      startsAt: new Date(now.getTime() - 3_600_000),
      endsAt: new Date(now.getTime() + 30 * DAY_MS),
    });
    const period = now.toISOString().slice(0, 7);
    await db.insert(liveUsage).values({ userId: trialist.id, period, ms: 999 * 60_000 });
    const { hostCode } = await codesOf(trialist);
    const started = sessionOf(await liveApi(server, trialist).start(hostCode));
    expect(started).toMatchObject({ maxDurationMs: 60_000, remainingMs: 60_000 });
    await liveApi(server, trialist).leave(started.code);
    await db
      .update(liveUsage)
      .set({ ms: LIVE_TRIAL_MAX_MINUTES * 60_000 })
      .where(eq(liveUsage.userId, trialist.id));
    const used = await liveApi(server, trialist).start(hostCode);
    expect([used.status, used.body.error?.message]).toEqual([403, LIVE_MESSAGES.trialTimeUsed]);
  });
});

describe('Save to project', () => {
  it('turns a recording into a new version of a project the caller may edit, on plans with recording', async () => {
    const studio = await codesOf(studioHost);
    const free = await codesOf(freeHost);
    await liveApi(server, studioHost).start(studio.hostCode);
    await liveApi(server, freeHost).start(free.hostCode);
    const project = async (user: LiveUser) =>
      (
        await call(server.url, '/api/projects', {
          method: 'POST',
          token: user.token,
          body: { name: 'Session', groupId: null },
        })
      ).body.id as string;
    const body = (projectId: string) => ({ projectId, name: 'Live take', fileName: 'live-take.wav', size: 48_000 });
    const save = (user: LiveUser, code: string, projectId: string) =>
      call(server.url, `/api/live/${code}/recordings`, { method: 'POST', token: user.token, body: body(projectId) });
    const refused = await save(freeHost, free.guestCode, await project(freeHost));
    expect([refused.status, refused.body.error?.message]).toEqual([403, LIVE_MESSAGES.recordingNotAvailable]);
    const mine = await project(studioHost);
    const ticket = await save(studioHost, studio.guestCode, mine);
    expect(ticket.status).toBe(201);
    expect(ticket.body).toMatchObject({ project: { id: mine }, version: { name: 'Live take' } });
    // Someone else's project stays out of reach.
    expect((await save(studioHost, studio.guestCode, await project(stranger))).status).toBe(403);
  });
});

describe('the live topic', () => {
  it('is followed by the room only, and a regenerated guest code takes it away at once', async () => {
    const { hostCode, guestCode } = await codesOf(studioHost);
    await liveApi(server, studioHost).start(hostCode);
    await liveApi(server, guests[4]!).join(guestCode);
    const listen = mediaOf(await liveApi(server, guests[4]!).mediaToken(guestCode, 'subscribe'));
    const member = await connectRealtime(server.url);
    const outsider = await connectRealtime(server.url);
    await member.auth(guests[4]!.token);
    await outsider.auth(stranger.token);
    expect(await member.subscribe(`live:${guestCode}`)).toMatchObject({ type: 'subscribed' });
    expect(await outsider.subscribe(`live:${guestCode}`)).toMatchObject({ type: 'denied' });
    member.send({ type: 'presence.join', topic: `live:${guestCode}`, scope: 'room' });
    await waitFor(() => member.messages.find((m) => m.type === 'presence' && m.scope === 'room'));

    const renewed = roomOf(await liveApi(server, studioHost).regenerate('guest'));
    expect(renewed.guestCode).not.toBe(guestCode);
    await waitFor(() => member.events().find((e) => e.type === 'live.changed' && e.data.action === 'ended'));
    await waitFor(() => member.messages.find((m) => m.type === 'revoked' && m.topic === `live:${guestCode}`));
    expect((await liveApi(server, guests[4]!).get(guestCode)).status).toBe(404);
    expect((await postOffer(`${server.url}/api/live/${guestCode}/whep`, listen.token, 'x')).status).toBe(403);
    expect((await liveApi(server, guests[4]!).join(renewed.guestCode)).status).toBe(404);
    member.close();
    outsider.close();
  });
});

describe('joins by code', () => {
  it('are limited per user after repeated wrong codes, even for a right code', async () => {
    const { hostCode, guestCode } = await codesOf(studioHost);
    await liveApi(server, studioHost).start(hostCode);
    const prober = await liveUser(server, 'prober');
    for (let i = 0; i < 10; i++) expect((await liveApi(server, prober).join(`wrong${i}code`)).status).toBe(404);
    const blocked = await liveApi(server, prober).join(guestCode);
    expect([blocked.status, blocked.body.error?.code]).toEqual([429, LIVE_ERROR_CODES.tooManyAttempts]);
    expect((await liveApi(server, guests[5]!).join(guestCode)).status).toBe(200);
  });
});
