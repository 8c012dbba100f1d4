export * from './marker';
export * from './midi-markers';
export * from './text-markers';
