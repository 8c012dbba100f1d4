// What other modules may use of the users module (lint refuses deeper imports).
// Accounts (sign-up, passwords) is the users module's other door: it shares the repository.
export type { UsersService, Actor } from './users.service';
export type { UsersRepository, UserRow } from './users.repository';
export type { Notifier, Notice } from './notifier';
export { presentGrant } from './plan-grant.presenter';
