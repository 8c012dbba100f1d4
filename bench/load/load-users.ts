// The simulated users: teams of five sharing a folder and a project, each member browsing, searching,
// reviewing and commenting while the others' sockets receive the comments; some upload big files
// through the web's upload engine straight to storage, some send and fetch transfers.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import type { ServerMessage, TransferDetail, TransferUploadTicket, UploadTicket, Version } from '@mixroom/contracts';
import { uploadFile } from '../../apps/web/src/features/uploads/upload-engine';
import { call } from '../../apps/server/test/helpers/api';
import { inviteOf } from '../../apps/server/test/helpers/invite';
import { refreshTokens, signInThroughOidc } from '../../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../../apps/server/test/helpers/storage-client';
import { transferForm } from '../../apps/server/test/helpers/transfers';
import type { LoadMetrics } from './load-metrics';
import { RealtimeFollower } from './realtime-follower';

export interface SourceFile {
  path: string;
  size: number;
  sha256: string;
}

export interface SimUser {
  email: string;
  password: string;
  /** The address the user signs in from (each simulated user has its own). */
  address: string;
  token: string;
  refreshToken: string;
  client: ReturnType<typeof storageClient>;
  team: Team;
  follower: RealtimeFollower | null;
}

export interface Team {
  index: number;
  folderId: string;
  projectId: string;
  versionId: string;
  members: SimUser[];
}

/** What the server acknowledged, checked against the database's state after the run. */
export interface Ledger {
  /** Comment text → version, for every comment the server answered 201 to. */
  comments: Map<string, string>;
  /** Comment text → when it was sent, to time its delivery to the other members' sockets. */
  sentAt: Map<string, number>;
  uploads: { versionId: string; projectId: string; source: SourceFile; user: SimUser }[];
  transfers: number;
}

export const sha256Of = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

export async function signUpTeams(
  baseUrl: string,
  count: number,
  small: SourceFile,
  metrics: LoadMetrics,
): Promise<SimUser[]> {
  const users: SimUser[] = [];
  const teams: Team[] = [];
  for (let t = 0; t * 5 < count; t++) {
    const size = Math.min(5, count - t * 5);
    const members = await Promise.all(
      Array.from({ length: size }, async (_, m) => {
        const email = `load-${t}-${m}@load.test`;
        const password = `load-password-${t}-${m}`;
        const address = `10.1.${t}.${m + 1}`;
        const tokens = await metrics.time('sign-in', () =>
          signInThroughOidc(baseUrl, { email, password, displayName: `Load ${t}.${m}` }, 'signup', address),
        );
        return {
          email,
          password,
          address,
          token: tokens.access_token,
          refreshToken: tokens.refresh_token ?? '',
          client: storageClient(baseUrl, tokens.access_token),
        };
      }),
    );
    const lead = members[0]!;
    const folder = await lead.client.createFolder(`Team ${t}`, null);
    const { version } = await lead.client.upload(small.path, folder.id, { fileName: `team-${t}-mix.wav` });
    const invite = await inviteOf(lead.client, 'group', folder.id);
    // Each member asks with the invitation link; the lead approves, as the notifications bell does.
    for (const member of members.slice(1)) {
      await member.client.api('/api/join-requests', { method: 'POST', body: { type: 'group', id: folder.id, invite } });
      const { id } = await member.client.api<{ id: string }>('/api/me');
      await lead.client.api(`/api/join-requests/${folder.id}/${id}/approve`, { method: 'POST' });
    }
    const team: Team = {
      index: t,
      folderId: folder.id,
      projectId: version.projectId,
      versionId: version.id,
      members: [],
    };
    for (const member of members) {
      const user: SimUser = { ...member, team, follower: null };
      team.members.push(user);
      users.push(user);
    }
    teams.push(team);
  }
  return users;
}

/**
 * Renews a user's tokens as the web app does. A renewal that got no answer, or a 5xx, keeps the
 * tokens it has and is tried again on the next round with the same refresh token (the provider
 * accepts its reuse for a short grace); only a refusal (400) makes the user sign in again with the
 * password, as a person would, and the harness counts both.
 */
export async function renewUser(baseUrl: string, user: SimUser, metrics: LoadMetrics): Promise<void> {
  let tokens: Awaited<ReturnType<typeof refreshTokens>>;
  try {
    tokens = await metrics.time('sign-in', () => refreshTokens(baseUrl, user.refreshToken));
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('refresh failed: 400'))) {
      metrics.renewalsUnanswered++;
      return;
    }
    metrics.signedOutAgain++;
    tokens = await metrics.time('sign-in', () =>
      signInThroughOidc(baseUrl, { email: user.email, password: user.password }, 'signin', user.address),
    );
  }
  user.token = tokens.access_token;
  user.refreshToken = tokens.refresh_token ?? user.refreshToken;
  user.client = storageClient(baseUrl, tokens.access_token);
}

/** Access tokens live five minutes: each user renews its own well before, spread over a minute. */
export function renewTokens(baseUrl: string, users: SimUser[], metrics: LoadMetrics): () => void {
  const renew = (user: SimUser) => void renewUser(baseUrl, user, metrics).catch(() => undefined);
  const timers = users.map((user, i) =>
    setTimeout(
      () => {
        timers.push(setInterval(() => renew(user), 120_000));
        renew(user);
      },
      60_000 + (i * 60_000) / users.length,
    ),
  );
  return () => timers.forEach((timer) => clearTimeout(timer));
}

/** Each member follows its team's project; a comment from someone else is timed on arrival. */
export function followTeams(baseUrl: string, users: SimUser[], ledger: Ledger, metrics: LoadMetrics): void {
  for (const user of users) {
    const onMessage = (message: ServerMessage) => {
      if (message.type !== 'event' || message.event.type !== 'comment.changed') return;
      const text = message.event.data.comment?.text;
      const sent = text ? ledger.sentAt.get(text) : undefined;
      if (sent !== undefined && !text!.startsWith(`${user.email} `)) metrics.deliveries.push(performance.now() - sent);
    };
    user.follower = new RealtimeFollower(baseUrl, () => user.token, [`project:${user.team.projectId}`], onMessage);
    user.follower.connect();
  }
}

/** Only this many big uploads run at once, as a studio's uplink would allow. */
export class UploadGate {
  private running = 0;
  constructor(private readonly limit: number) {}
  tryEnter(): boolean {
    if (this.running >= this.limit) return false;
    this.running++;
    return true;
  }
  leave(): void {
    this.running--;
  }
}

/**
 * A big upload through the web's engine into the user's own root (team members are viewers of the
 * team folder); a failed attempt resumes the same upload, as the page does.
 */
export async function uploadBig(
  user: SimUser,
  source: SourceFile,
  ledger: Ledger,
  metrics: LoadMetrics,
): Promise<void> {
  const started = performance.now();
  const ticket = await metrics.time('upload', () =>
    user.client.api<UploadTicket>('/api/projects/upload', {
      method: 'POST',
      body: { groupId: null, fileName: `big-${randomBytes(3).toString('hex')}.wav`, size: source.size },
    }),
  );
  const file = await openAsBlob(source.path);
  for (let attempt = 1; ; attempt++) {
    try {
      const version = await metrics.time('upload', () =>
        uploadFile({ api: user.client.api, ticket, file, concurrency: 4 }),
      );
      ledger.uploads.push({ versionId: version.id, projectId: version.projectId, source, user });
      metrics.uploadedBytes += source.size;
      metrics.uploadMs += performance.now() - started;
      return;
    } catch (error) {
      if (attempt >= 6) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

export async function sendAndFetchTransfer(
  user: SimUser,
  source: SourceFile,
  baseUrl: string,
  ledger: Ledger,
  metrics: LoadMetrics,
) {
  const detail = await metrics.time('transfer-send', async () => {
    const created = await user.client.api<{ transfer: TransferDetail }>('/api/transfers', {
      method: 'POST',
      body: transferForm({ files: [{ path: '', fileName: 'stems.wav', size: source.size }] }),
    });
    const file = created.transfer.files[0]!;
    const base = `/api/transfers/${created.transfer.id}/files/${file.id}`;
    const ticket = await user.client.api<TransferUploadTicket>(`${base}/upload`, { method: 'POST' });
    await uploadFile({
      api: user.client.api,
      ticket,
      file: await openAsBlob(source.path),
      complete: (signal) => user.client.api<Version>(`${base}/complete`, { method: 'POST', signal }),
    });
    return user.client.api<TransferDetail>(`/api/transfers/${created.transfer.id}`);
  });
  await metrics.time('transfer-download', async () => {
    const link = new URL(detail.link).searchParams.get('transferId')!;
    const access = await call(baseUrl, `/api/public/transfers/${link}/access`, { method: 'POST', body: {} });
    const grant = String((access.body as { grant?: string }).grant);
    const response = await fetch(
      `${baseUrl}/api/public/transfers/${link}/files/${detail.files[0]!.id}/download?g=${grant}`,
    );
    if (!response.ok) throw new Error(`transfer download answered ${response.status}`);
    const digest = createHash('sha256')
      .update(Buffer.from(await response.arrayBuffer()))
      .digest('hex');
    if (digest !== source.sha256) throw new Error('transfer download differs from its source');
  });
  ledger.transfers++;
}
