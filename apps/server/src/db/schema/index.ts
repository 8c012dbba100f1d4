export * from './users';
export * from './platform';
