import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail } from '@mixroom/contracts';
import { DAY_MS, TRANSFER_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { sendTransfer, startTransferWorld, transferForm, type TransferWorld } from './helpers/transfers';

let world: TransferWorld | undefined;
let transfer: TransferDetail;
const file = join(tmpdir(), `mixroom-expiry-${process.pid}.bin`);
writeFileSync(file, Buffer.alloc(1000, 7));

const detail = async (id: string, token = world!.free) =>
  (await call(world!.server.url, `/api/transfers/${id}`, { token })).body as unknown as TransferDetail;
const patch = (id: string, body: unknown) =>
  call(world!.server.url, `/api/transfers/${id}`, { method: 'PATCH', token: world!.free, body });
const head = (t: TransferDetail) =>
  call(world!.server.url, `/api/public/transfers/${new URL(t.link).searchParams.get('transferId')}`);
const now = () => world!.server.clock.now().getTime();

beforeAll(async () => {
  world = await startTransferWorld();
  transfer = await sendTransfer(world.server.url, world.free, transferForm({ name: 'Stems for the mastering' }), [
    file,
  ]);
  // Two minutes after the send (within the five minutes a sign-in token lives): the send time is past.
  world.server.clock.advance(2 * 60 * 1000);
}, 180_000);
afterAll(() => world?.close());

describe('moving a transfer expiry', () => {
  it('refuses a date in the past with its own text, and the transfer stays available', async () => {
    for (const expiresAt of [
      // Between the send and now: inside the old window, but already past.
      new Date(Date.parse(transfer.createdAt) + 60_000),
      // Before the send.
      new Date(Date.parse(transfer.createdAt) - 26 * DAY_MS),
    ]) {
      const refused = await patch(transfer.id, { expiresAt: expiresAt.toISOString() });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ code: 'TRANSFER_EXPIRY_PAST', message: TRANSFER_MESSAGES.expiryPast });
    }
    const kept = await detail(transfer.id);
    expect(kept.status).toBe('available');
    expect(kept.expiresAt).toBe(transfer.expiresAt);
    expect((await head(transfer)).status).toBe(200);
  });

  it("refuses a date past the plan's longest duration as it is, cutting nothing to the maximum", async () => {
    const bounds = (await detail(transfer.id)).expiryBounds;
    const tooLate = new Date(Date.parse(bounds.max) + DAY_MS).toISOString();
    const refused = await patch(transfer.id, { expiresAt: tooLate });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('TRANSFER_EXPIRY_OUT_OF_RANGE');
    expect(refused.body.error?.message).toBe(
      TRANSFER_MESSAGES.expiryOutOfRange(bounds.min.slice(0, 10), bounds.max.slice(0, 10)),
    );
    expect((await detail(transfer.id)).expiresAt).toBe(transfer.expiresAt);
  });

  it('offers bounds from now (never the past) to the send plus the longest duration, and takes a date inside them', async () => {
    const bounds = (await detail(transfer.id)).expiryBounds;
    expect(Date.parse(bounds.min)).toBe(now());
    // Free's longest duration is 30 days.
    expect(Date.parse(bounds.max)).toBe(Date.parse(transfer.createdAt) + 30 * DAY_MS);
    const later = new Date(Date.parse(transfer.createdAt) + 20 * DAY_MS).toISOString();
    const moved = await patch(transfer.id, { expiresAt: later });
    expect(moved.status).toBe(200);
    expect((moved.body as unknown as TransferDetail).expiresAt).toBe(later);
    expect((await patch(transfer.id, { expiresAt: bounds.max })).status).toBe(200);
  });
});

describe('Expire now', () => {
  it("is the owner's alone, and ends the link for every recipient at once", async () => {
    const url = `/api/transfers/${transfer.id}/expire`;
    expect((await call(world!.server.url, url, { method: 'POST', token: world!.other })).status).toBe(404);
    expect((await head(transfer)).status).toBe(200);
    const ended = await call(world!.server.url, url, { method: 'POST', token: world!.free });
    expect(ended.status).toBe(200);
    expect((ended.body as unknown as TransferDetail).status).toBe('expired');
    expect(Date.parse((ended.body as unknown as TransferDetail).expiresAt)).toBe(now());
    expect((await head(transfer)).status).toBe(410);
    const again = await call(world!.server.url, url, { method: 'POST', token: world!.free });
    expect(again.status).toBe(410);
  });
});
