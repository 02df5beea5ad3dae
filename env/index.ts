/** The Ayoayo engine's public API. */
export * as core from './core.ts';
export {
  ILLEGAL_REASONS,
  IllegalActionError,
  type IllegalReason,
  PositionError,
} from './errors.ts';
export {
  applyAction,
  illegalReason,
  isTerminal,
  type Lap,
  legalActions,
  type MoveReport,
  type Outcome,
  outcome,
  playMove,
  traceMove,
} from './game.ts';
export { bytesToMask, maskActions, maskToBytes } from './mask.ts';
export { formatPosition, parsePosition, START_NOTATION } from './notation.ts';
export { perft } from './perft.ts';
export {
  initialPosition,
  type Player,
  Position,
  type PositionInput,
  position,
  positionFromState,
} from './position.ts';
export {
  Random,
  SEED_RANGE,
  sampleDirichlet,
  sampleGamma,
  sampleGumbel,
  sampleIndex,
} from './random.ts';
export { type BoardView, renderBoard } from './render.ts';
export { DEFAULT_RULE_CODE, type RuleCode, ruleCode } from './rule-code.ts';
export {
  DEFAULT_RULES,
  describeRuleOptions,
  describeRules,
  everyRules,
  formatRules,
  OTHER_RULES,
  parseRulesText,
  pickRules,
  RULE_NAMES,
  RULE_OPTIONS,
  type RuleName,
  type Rules,
  RulesError,
  type RulesInput,
  resolveRules,
  ruleEntries,
  rulesKey,
  rulesSchema,
  sameRules,
} from './rules.ts';
export { describeIssues, type IssueList } from './zod-issues.ts';
