import type { ExpertIterationSettings } from '../settings.ts';
import { CompletedQTarget } from './completed-q.ts';
import type { SearchTarget } from './search-target.ts';
import { VisitCountTarget } from './visit-counts.ts';

export type { RootPlan, SearchedMove, SearchTarget } from './search-target.ts';

/** The kinds of search target a run can name (`policyTarget`). */
export type SearchTargetKind = ExpertIterationSettings['policyTarget'];

/** The search target `kind` for `games` games; `completedQScale` is c_scale of the completed-Q target. */
export function searchTarget(
  kind: SearchTargetKind,
  games: number,
  completedQScale: number,
): SearchTarget {
  switch (kind) {
    case 'completed-q':
      return new CompletedQTarget(games, completedQScale);
    case 'visits':
      return new VisitCountTarget();
  }
}
