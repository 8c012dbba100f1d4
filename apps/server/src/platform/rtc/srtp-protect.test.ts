import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProtectionProfileAeadAes128Gcm, ProtectionProfileAes128CmHmacSha1_80, RtpHeader, SrtpSession } from 'werift';
import { srtpAssociation } from '../../../test/helpers/srtp-association';
import { protectRtp, type SrtpSendKeys } from './srtp-protect';

interface CipherKeys {
  srtpSessionKey: Buffer;
  srtpSessionSalt: Buffer;
  srtpSessionAuthTag?: Buffer;
}

/** One SRTP association made by werift: its sender's derived keys, and the receiving end. */
function association(profile: number, saltLength: number) {
  const { sender, receiver } = srtpAssociation(profile, saltLength);
  const cipher = sender.localContext.cipher as unknown as CipherKeys;
  const keys: SrtpSendKeys =
    profile === ProtectionProfileAeadAes128Gcm
      ? { profile: 'aead-aes-128-gcm', key: createSecretKey(cipher.srtpSessionKey), salt: cipher.srtpSessionSalt }
      : {
          profile: 'aes-cm-hmac-sha1-80',
          key: createSecretKey(cipher.srtpSessionKey),
          salt: cipher.srtpSessionSalt,
          authKey: createSecretKey(cipher.srtpSessionAuthTag!),
        };
  // werift's sender on the same keys, as the reference for every byte.
  const reference = new SrtpSession(sender.config);
  return { sender, receiver, reference, keys };
}

describe.each([
  { name: 'AES-128 counter mode + HMAC-SHA1-80', profile: ProtectionProfileAes128CmHmacSha1_80, saltLength: 14 },
  { name: 'AEAD AES-128-GCM', profile: ProtectionProfileAeadAes128Gcm, saltLength: 12 },
])('protectRtp, $name', ({ profile, saltLength }) => {
  it("writes werift's bytes for each packet, across the sequence number's wrap, and the other end opens them", () => {
    const { sender, receiver, reference, keys } = association(profile, saltLength);
    const ssrc = 0x8badf00d;
    for (let i = 0; i < 24; i += 1) {
      const sequenceNumber = (65_524 + i) & 0xffff;
      const timestamp = (0xffff_f000 + i * 960) >>> 0;
      const marker = i % 7 === 0;
      const payload = randomBytes(30 + i * 41);
      // The rollover counter as werift's context keeps it for this SSRC.
      const state = sender.localContext.getSrtpSsrcState(ssrc);
      sender.localContext.updateRolloverCount(sequenceNumber, state);
      const ours = protectRtp(
        keys,
        { marker, payloadType: 111, sequenceNumber, timestamp, ssrc, payload },
        state.rolloverCounter,
      );

      const header = new RtpHeader({ ssrc, sequenceNumber, timestamp, payloadType: 111, marker });
      expect(ours.equals(reference.encrypt(payload, header))).toBe(true);
      const opened = receiver.decrypt(ours);
      expect(opened.subarray(12).equals(payload)).toBe(true);
      expect(opened.readUInt16BE(2)).toBe(sequenceNumber);
      expect(opened.readUInt32BE(4)).toBe(timestamp);
      expect(opened[1]! >> 7).toBe(marker ? 1 : 0);
    }
    expect(sender.localContext.getSrtpSsrcState(ssrc).rolloverCounter).toBe(1);
  });

  it('writes a packet the other end refuses once a single byte changes', () => {
    const { receiver, keys } = association(profile, saltLength);
    const packet = protectRtp(
      keys,
      { marker: false, payloadType: 111, sequenceNumber: 7, timestamp: 960, ssrc: 42, payload: randomBytes(200) },
      0,
    );
    packet[20]! ^= 0x01;
    expect(() => receiver.decrypt(packet)).toThrow();
  });
});
