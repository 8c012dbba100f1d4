// What other modules may use of the credits module (lint refuses deeper imports).
export type { CreditsService } from './credits.service';
