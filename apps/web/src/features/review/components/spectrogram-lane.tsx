import type { ReactNode } from 'react';
import { PLAYER } from '@mixroom/shared';
import { frequencyLabels } from '../spectrogram-axis';
import classes from './review.module.css';

/**
 * The spectrogram in its own lane under the ruler, with a logarithmic frequency axis on the left
 * that stays put while the image follows zoom and scroll.
 */
export function SpectrogramLane({ children }: { children: ReactNode }) {
  const height = PLAYER.spectrogramHeight;
  return (
    <div className={classes.spectrogramLane} style={{ height }} data-testid="spectrogram-lane">
      {children}
      <div className={classes.frequencyAxis} aria-label="Frequency axis" data-testid="frequency-axis">
        {frequencyLabels(height).map(({ hz, label, bottom }) => (
          <div key={hz} className={classes.frequencyTick} style={{ bottom }}>
            {label}
          </div>
        ))}
        <div className={classes.frequencyUnit}>Hz</div>
      </div>
    </div>
  );
}
