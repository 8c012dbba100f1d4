export * from './plans';
export * from './limits';
export * from './messages';
export * from './enums';
