// What other modules may use of live rooms.
export { newRoomCode } from './live-codes';
export type { LiveMediaModule } from './live-media.module';
