// What the live room page uses of the talkback.
export { TalkbackControls } from './components/talkback-controls';
export { useTalkback } from './hooks/use-talkback';
