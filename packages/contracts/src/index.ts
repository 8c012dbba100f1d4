export * from './common';
export * from './health';
export * from './auth';
export * from './users';
export * from './realtime';
export * from './uploads';
export * from './storage';
export * from './sharing';
