import type { UserDataContribution } from '../user-data';
import type { BroadcastRepository } from './broadcast.repository';

/** A user's broadcast data: the room's codes, title and countdown (the stream key's hash stays out). */
export function broadcastUserData(repository: BroadcastRepository): UserDataContribution {
  return {
    async export(userId, archive) {
      const room = await repository.ofUser(userId);
      if (!room) return;
      archive.json('live/broadcast.json', {
        roomCodes: [
          { role: 'broadcaster', code: room.broadcasterCode },
          { role: 'viewer-realtime', code: room.viewerCode },
        ],
        title: room.title,
        countdownTime: room.countdownTime,
        bitrate: room.bitrate,
        streamKeyCreatedAt: room.streamKeyCreatedAt,
      });
    },
    erase: (userId, tx) => repository.erase(tx, userId),
  };
}
