// What other modules may use of the users module (lint refuses deeper imports).
// The sign-in module (sign-up, sign-in, password resets) is the users module's other door: it shares
// the repository, because the accounts it signs people into are the users module's.
export type { UsersService, Actor } from './users.service';
export type { UsersRepository, UserRow } from './users.repository';
export type { Notifier, Notice } from './notifier';
export { presentGrant } from './plan-grant.presenter';
