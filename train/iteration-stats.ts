/** What every algorithm's self-play reports of an iteration (metrics.csv's shared columns). */
export interface SelfPlayStats {
  /** Plies played (PPO: all seats; expert iteration: searched moves). */
  plies: number;
  /** Games finished. */
  games: number;
  /** Samples the update learns from that this iteration added. */
  learnerSamples: number;
  seconds: number;
  /** Mean length of the games finished in this iteration. */
  meanGamePlies: number;
}

/** What every algorithm's update reports. */
export interface UpdateStats {
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  /** Samples run through the update, epochs counted. */
  samples: number;
  seconds: number;
}
