export * from './plans';
export * from './limits';
export * from './messages';
export * from './enums';
export * from './permissions';
export * from './files';
export * from './comments';
export * from './review';
