export * from './users';
export * from './platform';
export * from './storage';
export * from './sharing';
export * from './comments';
export * from './review';
export * from './security';
export * from './billing';
