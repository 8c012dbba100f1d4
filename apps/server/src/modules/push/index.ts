// What other modules may use of the push module (lint refuses deeper imports).
export { sendPushJob } from './push.jobs';
