import type { UserDataContribution } from '../user-data';
import type { LiveRepository } from './live.repository';

/** A user's live data: room codes, hosted sessions (with their streams) and monthly live minutes. */
export function liveUserData(repository: LiveRepository): UserDataContribution {
  return {
    async export(userId, archive) {
      const [codes, sessions, usage] = await Promise.all([
        repository.codesOf(userId),
        repository.sessionsOfHost(userId),
        repository.usageOf(userId),
      ]);
      archive.json('live/live.json', {
        roomCodes: codes.map((c) => ({ role: c.role, code: c.code, createdAt: c.createdAt })),
        sessions: await Promise.all(
          sessions.map(async (s) => ({
            code: s.code,
            status: s.status,
            startTime: s.startTime,
            lastUpdate: s.lastUpdate,
            elapsedMs: s.elapsedMs,
            streams: (await repository.streams(s.code)).map((stream) => ({
              userId: stream.userId,
              isHost: stream.isHost,
              isEnabled: stream.isEnabled,
            })),
          })),
        ),
        minutesByMonth: usage.map((u) => ({ month: u.period, minutes: Math.round(u.ms / 60_000) })),
      });
    },
    erase: (userId, tx) => repository.eraseUser(tx, userId),
  };
}
