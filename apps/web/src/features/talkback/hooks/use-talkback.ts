import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { LiveEngine } from '../../live';
import { INITIAL_TALKBACK, TalkbackEngine } from '../talkback-engine';
import { storeDuckDb, storedDuckDb } from '../talkback-settings';

/** The talkback joins by itself this long after the room opened (the embedded room's auto-join). */
export const TALKBACK_JOIN_DELAY_MS = 500;

/**
 * The talkback of a live room, once the room is entered (the 'Click Ok to start' click made the
 * audio engine): joins after 500 ms, leaves with the room (Exit unmounts the page).
 */
export function useTalkback(live: LiveEngine | null, code: string, selfId: string | null, entered: boolean) {
  const [engine, setEngine] = useState<TalkbackEngine | null>(null);
  const [duckDb, setDuckDbState] = useState(storedDuckDb);
  const duckRef = useRef(duckDb);

  useEffect(() => {
    if (!live || !selfId || !entered) return;
    let created: TalkbackEngine | null = null;
    const timer = setTimeout(() => {
      created = new TalkbackEngine({
        context: live.context,
        code,
        selfId,
        duck: (depthDb) => live.setDuck(depthDb),
        duckDepthDb: () => duckRef.current,
      });
      setEngine(created);
      void created.start();
    }, TALKBACK_JOIN_DELAY_MS);
    return () => {
      clearTimeout(timer);
      created?.stop();
      setEngine(null);
    };
  }, [live, code, selfId, entered]);

  const snapshot = useSyncExternalStore(
    engine?.subscribe ?? noopSubscribe,
    () => engine?.snapshot ?? INITIAL_TALKBACK,
    () => INITIAL_TALKBACK,
  );

  const setDuckDb = useCallback(
    (db: number) => {
      duckRef.current = db;
      setDuckDbState(db);
      storeDuckDb(db);
      engine?.refreshDuck();
    },
    [engine],
  );

  return { engine, snapshot, duckDb, setDuckDb };
}

const noopSubscribe = () => () => undefined;
