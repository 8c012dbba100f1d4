// What other modules may use of the uploads module (lint refuses deeper imports).
export type { UploadsService } from './uploads.service';
