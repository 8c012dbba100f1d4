import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AccessChanges } from './access/access-changes';
import { ItemAccessRepository } from './access/item-access.repository';
import { STORAGE_SCOPE } from './access/item-scope';
import { ItemPolicy } from './access/item.policy';
import { PublicLinkPolicy } from './access/public-link.policy';
import type { AppConfig } from './config/config';
import { lockDataDir } from './db/data-dir-lock';
import { openDatabase, type Database, type Tx } from './db/database';
import type { CoreDeps } from './modules/module';
import { createBlobStore } from './platform/blob/create-blob-store';
import { UrlSigner } from './platform/blob/url-signer';
import { systemClock, type Clock } from './platform/clock/clock';
import { FaultPoints } from './platform/faults/fault-points';
import { JobQueue } from './platform/jobs/job-queue';
import { Outbox } from './platform/jobs/outbox';
import { createMailer, type Mailer } from './platform/mail/mailer';
import { locateMediaTools, type MediaTools } from './platform/media/ffmpeg';
import { PgNotifyBus } from './platform/realtime/pg-notify-bus';
import { PublicGrants } from './platform/realtime/public-grants';
import { SecretsRepository } from './platform/secrets/secrets.repository';
import { TokenSigner } from './platform/secrets/token-signer';
import { TempSpace } from './platform/temp/temp-space';

/** The core every module is built from, plus what only the root and the HTTP app hold. */
export interface Core {
  core: CoreDeps;
  database: Database;
  secrets: SecretsRepository;
  signer: UrlSigner;
  mailer: Mailer;
  mediaTools: MediaTools;
}

export interface CoreOptions {
  clock?: Clock;
  /** A test's crash point (see FaultPoints); production leaves it unset. */
  faultPoint?: string | null;
}

/**
 * Opens the data directory, database, blob store, bus, queue and outbox, and builds the access
 * layer's policies. `cleanups` receives each release in order of acquisition.
 */
export async function createCore(
  config: AppConfig,
  log: Logger,
  options: CoreOptions,
  cleanups: (() => Promise<void> | void)[],
): Promise<Core> {
  const clock = options.clock ?? systemClock;
  if (!config.database.url) cleanups.push(lockDataDir(config.dataDir));
  // After the lock: a process refused the directory must not sweep the files of the one holding it.
  const temp = TempSpace.open(join(config.dataDir, 'tmp'));
  cleanups.push(() => temp.close());
  const database = await openDatabase({
    url: config.database.url,
    dataDir: config.dataDir,
    poolSize: config.database.poolSize,
    onError: (error) => log.warn({ err: error }, 'database connection lost; it will be replaced'),
  });
  cleanups.push(() => database.close());
  const { db } = database;

  const secrets = new SecretsRepository(db);
  const secret = async (name: string) =>
    Buffer.from(await secrets.getOrCreate(name, () => randomBytes(32).toString('base64url')), 'base64url');
  const signer = new UrlSigner(await secret('blob.urlSecret'), config.publicUrl, clock);
  const tokens = new TokenSigner(await secret('tokens.secret'));
  const blobs = createBlobStore(config.blob, signer);

  const bus = database.pglite
    ? await PgNotifyBus.onPglite(database.pglite, log, clock)
    : await PgNotifyBus.onPostgres(database.pool!, database.connectionString!, log, clock);
  cleanups.push(() => bus.close());
  const jobs = new JobQueue(database, bus, log);
  cleanups.push(() => jobs.stop());
  const outbox = new Outbox(db, jobs, bus, log);
  cleanups.push(() => outbox.stop());

  const facts = new ItemAccessRepository(db, STORAGE_SCOPE);
  const core: CoreDeps = {
    config,
    log,
    db,
    unitOfWork: <T>(work: (tx: Tx) => Promise<T>) => db.transaction(work),
    blobs,
    bus,
    jobs,
    outbox,
    clock,
    faults: new FaultPoints(options.faultPoint ?? process.env.MIXROOM_FAULT_INJECTION ?? null),
    tokens,
    grants: new PublicGrants(tokens),
    temp,
    facts,
    items: new ItemPolicy(facts),
    links: new PublicLinkPolicy(facts),
    accessChanges: new AccessChanges(bus),
  };
  return {
    core,
    database,
    secrets,
    signer,
    mailer: createMailer(config.mail, log, clock),
    mediaTools: locateMediaTools(config.media),
  };
}
