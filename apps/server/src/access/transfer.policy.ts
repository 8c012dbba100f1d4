import { TRANSFER_MESSAGES } from '@mixroom/shared';
import type { transfers } from '../db/schema';
import { DomainError } from '../platform/errors/domain-error';
import type { Clock } from '../platform/clock/clock';
import type { Actor } from '../platform/identity/actor';
import type { TokenSigner } from '../platform/secrets/token-signer';

type TransferRow = typeof transfers.$inferSelect;

/** A link's transfer, and whose link it is: a recipient's own (their address), or the shared one (null). */
export interface TransferLink {
  transfer: TransferRow;
  email: string | null;
}

/** How the policy looks transfers up (the transfers module's repository). */
export interface TransferFacts {
  find(id: string): Promise<TransferRow | null>;
  /** The transfer behind a shared or a recipient's token. */
  findLink(token: string): Promise<TransferLink | null>;
  /** Whether the token was a link of a transfer deleted since. */
  isRetired(token: string): Promise<boolean>;
  /** Whether the owner's account is neither disabled nor being deleted. */
  ownerActive(userId: string): Promise<boolean>;
}

/**
 * What a grant lets its holder do: browse and download one transfer, counted as `email` (the
 * recipient whose own link it came through) or as someone with the shared link (null).
 */
export interface TransferGrant {
  transfer: TransferRow;
  email: string | null;
  /** The owner looking at their own transfer: nothing is counted or logged. */
  owner: boolean;
}

interface GrantClaims {
  t: string;
  v: number;
  m: string | null;
  o: boolean;
}

/** Grants outlive a long download but not a day; every request checks the transfer again anyway. */
export const TRANSFER_GRANT_TTL_SECONDS = 6 * 3600;
const GRANT_PURPOSE = 'transfer-grant';

export const transferUnavailable = () => new DomainError(410, 'TRANSFER_UNAVAILABLE', TRANSFER_MESSAGES.unavailable);
const unknownTransfer = () => new DomainError(404, 'TRANSFER_NOT_FOUND', TRANSFER_MESSAGES.unavailable);
const passwordRequired = () => new DomainError(401, 'PASSWORD_REQUIRED', TRANSFER_MESSAGES.passwordRequired);

/**
 * Who may reach a transfer. The owner reaches it by id (anyone else gets the same 404 as for an id
 * that does not exist). A recipient reaches it by a link's token (the shared one, or their own from
 * their e-mail, which alone makes their downloads count as theirs): the head (title, expiry) at
 * once, everything else with a grant, which the password check hands out. Expiry is decided here on
 * every read, by the clock: an expired, deleted or purged transfer answers 410 whatever grant is
 * shown, and so does one whose owner's account is disabled (until it is enabled again).
 */
export class TransferPolicy {
  constructor(
    private readonly facts: TransferFacts,
    private readonly tokens: TokenSigner,
    private readonly clock: Clock,
  ) {}

  isExpired(transfer: Pick<TransferRow, 'expiresAt'>): boolean {
    return this.clock.now().getTime() >= transfer.expiresAt.getTime();
  }

  /** Sent, not expired, files still stored. */
  isAvailable(transfer: TransferRow): boolean {
    return transfer.flag === 'NONE' && !transfer.purgedAt && !this.isExpired(transfer);
  }

  /** The actor's own transfer (uploading, sent or expired), or 404. */
  async owned(actor: Actor, id: string): Promise<TransferRow> {
    const transfer = await this.facts.find(id);
    if (
      !transfer ||
      transfer.publisherId !== actor.userId ||
      transfer.flag === 'DELETE' ||
      transfer.flag === 'DELETING'
    )
      throw DomainError.notFound('No such transfer.');
    return transfer;
  }

  /**
   * A link's transfer, and whose link it is, while it may be opened: 404 for a token nobody ever
   * held, 410 once it is gone (expired, purged or deleted) or while its owner's account is disabled.
   */
  async link(token: string): Promise<TransferLink> {
    const found = await this.facts.findLink(token);
    if (!found) throw (await this.facts.isRetired(token)) ? transferUnavailable() : unknownTransfer();
    if (found.transfer.flag === 'CREATE') throw unknownTransfer();
    if (!this.isAvailable(found.transfer) || !(await this.facts.ownerActive(found.transfer.publisherId)))
      throw transferUnavailable();
    return found;
  }

  async byToken(token: string): Promise<TransferRow> {
    return (await this.link(token)).transfer;
  }

  issue(transfer: TransferRow, email: string | null, owner: boolean): { grant: string; expiresAt: string } {
    const claims: GrantClaims = { t: transfer.id, v: transfer.accessEpoch, m: email, o: owner };
    return {
      grant: this.tokens.sign(GRANT_PURPOSE, claims, TRANSFER_GRANT_TTL_SECONDS),
      expiresAt: new Date(this.clock.now().getTime() + TRANSFER_GRANT_TTL_SECONDS * 1000).toISOString(),
    };
  }

  /**
   * The transfer behind a link and grant, checked now: available (else 410), and the grant made for
   * it since its last password change (else 401, which asks for the password again).
   */
  async granted(token: string, grant: string): Promise<TransferGrant> {
    const transfer = await this.byToken(token);
    const claims = this.tokens.verify<GrantClaims>(GRANT_PURPOSE, grant);
    if (!claims || claims.t !== transfer.id || claims.v !== transfer.accessEpoch) throw passwordRequired();
    return { transfer, email: claims.m, owner: claims.o };
  }
}
