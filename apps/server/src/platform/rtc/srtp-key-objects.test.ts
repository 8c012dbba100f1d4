import { randomBytes, KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProtectionProfileAeadAes128Gcm, ProtectionProfileAes128CmHmacSha1_80, RtpHeader, SrtpSession } from 'werift';
import { srtpAssociation } from '../../../test/helpers/srtp-association';
import { keepSessionKeysAsObjects } from './srtp-key-objects';

const header = (sequenceNumber: number) =>
  new RtpHeader({ ssrc: 0x1234abcd, sequenceNumber, timestamp: sequenceNumber * 960, payloadType: 111, marker: false });

describe.each([
  {
    name: 'AES-128-CTR + HMAC-SHA1-80',
    profile: ProtectionProfileAes128CmHmacSha1_80,
    keyLength: 16,
    saltLength: 14,
    keys: 8,
  },
  { name: 'AEAD AES-128-GCM', profile: ProtectionProfileAeadAes128Gcm, keyLength: 16, saltLength: 12, keys: 4 },
])('SRTP keys as KeyObjects, $name', ({ profile, keyLength, saltLength, keys }) => {
  it('writes the same bytes as werift with Buffer keys, which the other end opens', () => {
    const plain = srtpAssociation(profile, saltLength, keyLength);
    const other = srtpAssociation(profile, saltLength, keyLength);
    const payloads = Array.from({ length: 20 }, (_, i) => randomBytes(40 + i * 37));
    const before = payloads.map((payload, i) => plain.sender.encrypt(payload, header((65_530 + i) & 0xffff)));

    expect(keepSessionKeysAsObjects(plain.sender)).toBe(keys);
    expect(keepSessionKeysAsObjects(plain.receiver)).toBe(keys);
    expect(keepSessionKeysAsObjects(plain.sender)).toBe(0);
    const cipher = plain.sender.localContext.cipher as unknown as { srtpSessionKey: unknown };
    expect(cipher.srtpSessionKey).toBeInstanceOf(KeyObject);

    // A fresh session on the same keys (its rollover state starts over like the first one's did).
    const again = new SrtpSession(plain.sender.config);
    keepSessionKeysAsObjects(again);
    const after = payloads.map((payload, i) => again.encrypt(payload, header((65_530 + i) & 0xffff)));
    expect(after.map((b) => b.toString('hex'))).toEqual(before.map((b) => b.toString('hex')));
    // Across the sequence number's wrap, the converted receiver opens every packet to its payload.
    after.forEach((packet, i) => expect(plain.receiver.decrypt(packet).subarray(12)).toEqual(payloads[i]));
    // A flipped bit is still refused: the authentication tag is checked with the converted key.
    const tampered = Buffer.from(after[3]!);
    tampered[20]! ^= 1;
    expect(() => plain.receiver.decrypt(tampered)).toThrow();
    // And the comparison means something: other keys write other bytes.
    expect(other.sender.encrypt(payloads[0]!, header(65_530))).not.toEqual(before[0]);
  });

  it('converts SRTCP too, and its packets still open', () => {
    const { senderRtcp, receiverRtcp } = srtpAssociation(profile, saltLength, keyLength);
    expect(keepSessionKeysAsObjects(senderRtcp)).toBe(keys);
    expect(keepSessionKeysAsObjects(receiverRtcp)).toBe(keys);
    // A receiver report with no blocks: version 2, RR (201), length 1, sender SSRC.
    const report = Buffer.from([0x80, 201, 0, 1, 0x12, 0x34, 0xab, 0xcd]);
    expect(receiverRtcp.decrypt(senderRtcp.encrypt(report))).toEqual(report);
  });

  it('leaves a session without keys alone', () => {
    expect(keepSessionKeysAsObjects(undefined)).toBe(0);
  });
});
