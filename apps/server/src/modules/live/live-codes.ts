import { randomBytes } from 'node:crypto';
import {
  LIVE_ERROR_CODES,
  LIVE_MESSAGES,
  LIVE_ROOM_CODE_ALPHABET,
  LIVE_ROOM_CODE_LENGTH,
  LIVE_URL_CODE_PLACEHOLDER,
  liveGuestPath,
} from '@mixroom/shared';
import { AppError } from '../../http/app-error';

/** A fresh room code: 10 symbols of a 32-letter alphabet, 50 random bits (one byte per symbol, 5 bits used). */
export function newRoomCode(): string {
  const bytes = randomBytes(LIVE_ROOM_CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += LIVE_ROOM_CODE_ALPHABET[byte & 31];
  return code;
}

/** The session's liveUrl: the guest link with the code's placeholder (the spec's "contains a room-code placeholder"). */
export const liveUrlTemplate = (publicUrl: string) => `${publicUrl}${liveGuestPath(LIVE_URL_CODE_PLACEHOLDER)}`;

/**
 * The one answer to a code that leads nowhere for this caller: unknown, regenerated (removed), not
 * started, or not the caller's room. Alike in status, code and text, so a code can't be probed.
 */
export const notStarted = () => new AppError(404, LIVE_ERROR_CODES.notStarted, LIVE_MESSAGES.notStarted);
