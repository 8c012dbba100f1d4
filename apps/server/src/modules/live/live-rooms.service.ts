import type { LiveRoom } from '@mixroom/contracts';
import { LIVE_ROOM_ROLES, type LiveRoomRole } from '@mixroom/shared';
import type { UnitOfWork } from '../../db/database';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import { liveUrlTemplate, newRoomCode } from './live-codes';
import type { LiveRepository } from './live.repository';

export interface LiveRoomsDeps {
  repository: LiveRepository;
  unitOfWork: UnitOfWork;
  clock: Clock;
  publicUrl: string;
  /** The guest code changed: the session under the old one ends and its guests lose the room. */
  guestCodeReplaced: (oldCode: string) => Promise<void>;
}

export interface RoomCodes {
  host: string;
  guest: string;
}

/** Room codes per user and role: created on first read, regenerated on request. */
export class LiveRoomsService {
  constructor(private readonly deps: LiveRoomsDeps) {}

  /** The user's codes, creating the missing ones (a unique clash of two random codes just retries). */
  async codes(userId: string): Promise<RoomCodes> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const rows = await this.deps.repository.codesOf(userId);
      const host = rows.find((r) => r.role === 'host')?.code;
      const guest = rows.find((r) => r.role === 'guest')?.code;
      if (host && guest) return { host, guest };
      const missing = LIVE_ROOM_ROLES.filter((role) => !rows.some((r) => r.role === role));
      try {
        for (const role of missing)
          await this.deps.repository.insertCode(userId, role, newRoomCode(), this.deps.clock.now());
      } catch {
        // A code another user holds (2^-50 odds) breaks the unique index: draw again.
      }
    }
    throw new Error('Could not create live room codes.');
  }

  async rooms(actor: Actor): Promise<LiveRoom> {
    return this.present(await this.codes(actor.userId));
  }

  /** A new code for the role; the old one stops at once (guests in the room are dropped). */
  async regenerate(actor: Actor, role: LiveRoomRole): Promise<LiveRoom> {
    const before = await this.codes(actor.userId);
    const code = newRoomCode();
    await this.deps.unitOfWork(async (tx) => {
      await this.deps.repository.replaceCode(tx, actor.userId, role, code, this.deps.clock.now());
      if (role === 'host') await this.deps.repository.setHostCode(tx, actor.userId, code);
    });
    if (role === 'guest') await this.deps.guestCodeReplaced(before.guest);
    return this.present({ ...before, [role]: code });
  }

  private present(codes: RoomCodes): LiveRoom {
    return {
      roomCodes: [
        { role: 'host', code: codes.host },
        { role: 'guest', code: codes.guest },
      ],
      hostCode: codes.host,
      guestCode: codes.guest,
      liveUrl: liveUrlTemplate(this.deps.publicUrl),
    };
  }
}
