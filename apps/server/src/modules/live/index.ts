// What other modules may use of live rooms.
export { newRoomCode } from './live-codes';
export type { LiveMediaModule } from './live-media.module';
// What the talkback of a live room reads: who is admitted to a room, with what role.
export { hostFacts, type LiveSessionsService } from './live-sessions.service';
export { roleOf } from './live.presenter';
export type { LiveRepository } from './live.repository';
