import { describe, expect, it } from 'vitest';
import { isRecipientEmail } from './transfers';

describe('recipient addresses', () => {
  it('accepts the endings studios use, long ones and internationalised ones included', () => {
    for (const address of [
      'mastering@example.com',
      'ana.mixer+review@studio.co.uk',
      'producer@bigroom.studio',
      'desk@label.music',
      'tape@room.audio',
      'ops@bookings.agency',
      'kim@xn--mnchen-3ya.xn--de-ufa',
    ])
      expect(isRecipientEmail(address), address).toBe(true);
  });

  it('refuses what is not an address', () => {
    for (const address of [
      '',
      'ana',
      'ana@',
      '@example.com',
      'ana@example',
      'ana@example.c',
      'ana@exa mple.com',
      'ana@-example.com',
      'ana@example.123',
      `${'a'.repeat(250)}@example.com`,
    ])
      expect(isRecipientEmail(address), address).toBe(false);
  });
});
