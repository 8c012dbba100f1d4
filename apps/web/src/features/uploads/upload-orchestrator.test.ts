import { describe, expect, it, vi } from 'vitest';
import { fingerprint, type Ticket } from './pending-uploads';
import { UPLOAD_MESSAGES, type TabClaims } from './upload-orchestrator';
import { deferred, file, heldSend, setup, ticket, version } from './upload-orchestrator.fixtures';

describe('the upload orchestrator', () => {
  it('asks its ticket source, reports Started, In Progress with percents and Finished, and forgets the ticket once done', async () => {
    const { orchestrator, pending, states, send } = setup();
    const source = vi.fn(async () => ticket(1));
    const onTicket = vi.fn();
    const seen: number[] = [];
    const handle = orchestrator.start({
      file: file(),
      label: 'Drums/kick.wav',
      scope: 'folder:root',
      ticket: source,
      onTicket,
      onProgress: (p) => seen.push(p),
    });
    await expect(handle.done).resolves.toEqual({ status: 'completed', version: version('version-1') });
    expect(source).toHaveBeenCalledTimes(1);
    expect(onTicket).toHaveBeenCalledWith(ticket(1));
    expect(send.mock.calls[0]![0].ticket).toEqual(ticket(1));
    expect(states).toEqual(['Started 0', 'In Progress 0', 'In Progress 33', 'In Progress 100', 'Finished 100']);
    expect(seen).toEqual([0, 33, 100]);
    expect(pending.all()).toEqual([]);
  });

  it('keeps the ticket while the bytes travel, so a reload can resume', async () => {
    const held = heldSend();
    const { orchestrator, pending } = setup({ send: held.send });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'version:p1',
      ticket: async () => ticket(1),
    });
    await held.started.promise;
    expect(pending.find(fingerprint(file(), 'version:p1'))).toMatchObject({
      scope: 'version:p1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(1),
    });
    held.gate.resolve();
    await handle.done;
    expect(pending.all()).toEqual([]);
  });

  it('resumes the same file sent to the same place with the saved ticket while its session is open', async () => {
    const { orchestrator, pending, send } = setup({
      sessions: { 'upload-7': { status: 'open', parts: [{ partNumber: 1, etag: 'a', size: 100 }] } },
    });
    pending.save({
      fingerprint: fingerprint(file(), 'folder:g1'),
      scope: 'folder:g1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(7),
    });
    const source = vi.fn(async () => ticket(8));
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g1', ticket: source }).done;
    expect(source).not.toHaveBeenCalled();
    expect(send.mock.calls[0]![0].ticket).toEqual(ticket(7));
  });

  it('starts over when the saved session was closed, or when the file goes elsewhere', async () => {
    const { orchestrator, pending, send } = setup({ sessions: { 'upload-7': { status: 'aborted' } } });
    pending.save({
      fingerprint: fingerprint(file(), 'folder:g1'),
      scope: 'folder:g1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(7),
    });
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g1', ticket: async () => ticket(8) })
      .done;
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g2', ticket: async () => ticket(9) })
      .done;
    expect(send.mock.calls.map((c) => c[0].ticket.upload.id)).toEqual(['upload-8', 'upload-9']);
  });

  it('cancels: stops the parts, calls the server cancel, drops the activity and the saved ticket', async () => {
    const held = heldSend();
    const { orchestrator, pending, activities, cancelOnServer } = setup({ send: held.send });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: async () => ticket(1),
    });
    const options = await held.started.promise;
    activities.get(handle.id)!.cancel!();
    await expect(handle.done).resolves.toEqual({ status: 'cancelled' });
    expect(options.signal?.aborted).toBe(true);
    expect(cancelOnServer).toHaveBeenCalledWith('version-1');
    expect(activities.size).toBe(0);
    expect(pending.all()).toEqual([]);
  });

  it('cancelled before the server answered with a ticket: cancels that version as soon as it exists, sends nothing', async () => {
    const { orchestrator, cancelOnServer, send } = setup();
    const answer = deferred<Ticket>();
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: () => answer.promise,
    });
    handle.cancel();
    answer.resolve(ticket(3));
    await expect(handle.done).resolves.toEqual({ status: 'cancelled' });
    expect(cancelOnServer).toHaveBeenCalledWith('version-3');
    expect(send).not.toHaveBeenCalled();
  });

  it('shows a failure as Error with its message, rejects, and keeps the ticket for a retry', async () => {
    const { orchestrator, pending, activities } = setup({
      send: async () => Promise.reject(new Error('The storage answered 500')),
    });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: async () => ticket(1),
    });
    await expect(handle.done).rejects.toThrow('The storage answered 500');
    expect(activities.get(handle.id)).toMatchObject({
      state: 'Error',
      error: 'The storage answered 500',
      cancel: undefined,
    });
    expect(pending.all()).toHaveLength(1);
  });

  it('does not send the same file to the same place twice at once', async () => {
    const held = heldSend();
    const { orchestrator } = setup({ send: held.send });
    const request = { file: file(), label: 'kick.wav', scope: 'folder:root', ticket: async () => ticket(1) };
    const first = orchestrator.start(request);
    expect(orchestrator.start(request)).toBe(first);
    held.gate.resolve();
    await first.done;
  });
});

describe('resuming after a reload', () => {
  const save = (s: ReturnType<typeof setup>, n: number, name: string) =>
    s.pending.save({
      fingerprint: fingerprint(file(name), 'folder:g1'),
      scope: 'folder:g1',
      label: `Live/${name}`,
      fileName: name,
      size: 300,
      ticket: ticket(n),
    });

  it('lists interrupted uploads with how far they got, forgets closed ones and leaves those another tab runs', async () => {
    const tabs: TabClaims = {
      hold: () => () => undefined,
      held: async () => new Set([fingerprint(file('c.wav'), 'folder:g1')]),
    };
    const s = setup({
      tabs,
      sessions: {
        'upload-1': { parts: [{ partNumber: 1, etag: 'x', size: 100 }] },
        'upload-2': { status: 'completed' },
        'upload-3': {},
      },
    });
    save(s, 1, 'a.wav');
    save(s, 2, 'b.wav');
    save(s, 3, 'c.wav');
    await s.orchestrator.restore();
    await s.orchestrator.restore();
    expect([...s.activities.values()]).toEqual([
      expect.objectContaining({
        name: 'Live/a.wav',
        state: 'Error',
        percent: 33,
        error: UPLOAD_MESSAGES.interrupted('a.wav'),
      }),
    ]);
    expect(s.pending.all().map((p) => p.fileName)).toEqual(['a.wav', 'c.wav']);
  });

  it('resumes with the saved ticket once the same file is chosen, and refuses another file', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    const settled = vi.fn();
    await s.orchestrator.restore(settled);
    const interrupted = [...s.activities.values()][0]!;
    interrupted.resume!(file('other.wav'));
    expect(s.activities.get(interrupted.id)?.error).toBe(UPLOAD_MESSAGES.otherFile('a.wav'));
    expect(s.send).not.toHaveBeenCalled();
    interrupted.resume!(file('a.wav'));
    await vi.waitFor(() => expect(settled).toHaveBeenCalled());
    expect(s.send.mock.calls[0]![0].ticket).toEqual(ticket(1));
    expect(s.activities.has(interrupted.id)).toBe(false);
    expect([...s.activities.values()].map((a) => a.state)).toEqual(['Finished']);
    expect(s.pending.all()).toEqual([]);
  });

  it('cancels an interrupted upload on the server', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    await s.orchestrator.restore();
    [...s.activities.values()][0]!.cancel!();
    expect(s.cancelOnServer).toHaveBeenCalledWith('version-1');
    expect(s.activities.size).toBe(0);
    expect(s.pending.all()).toEqual([]);
  });

  it('drops the interrupted entry when the same file is sent to the same place again', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    await s.orchestrator.restore();
    await s.orchestrator.start({
      file: file('a.wav'),
      label: 'Live/a.wav',
      scope: 'folder:g1',
      ticket: async () => ticket(5),
    }).done;
    expect([...s.activities.values()].map((a) => a.state)).toEqual(['Finished']);
    expect(s.send.mock.calls[0]![0].ticket).toEqual(ticket(1));
  });
});
