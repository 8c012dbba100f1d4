import { randomBytes } from 'node:crypto';
import { SrtcpSession, SrtpSession } from 'werift';

/**
 * Two ends of one SRTP association made by werift, on fresh random master keys: what the sender
 * protects with its local keys, the receiver opens with its remote keys (RTP and RTCP).
 */
export function srtpAssociation(profile: number, saltLength: number, keyLength = 16) {
  const a = { key: randomBytes(keyLength), salt: randomBytes(saltLength) };
  const b = { key: randomBytes(keyLength), salt: randomBytes(saltLength) };
  const config = (local: typeof a, remote: typeof a) => ({
    keys: {
      localMasterKey: local.key,
      localMasterSalt: local.salt,
      remoteMasterKey: remote.key,
      remoteMasterSalt: remote.salt,
    },
    profile,
  });
  return {
    sender: new SrtpSession(config(a, b)),
    receiver: new SrtpSession(config(b, a)),
    senderRtcp: new SrtcpSession(config(a, b)),
    receiverRtcp: new SrtcpSession(config(b, a)),
  };
}
