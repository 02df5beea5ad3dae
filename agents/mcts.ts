import {
  core,
  type Position,
  type Random,
  type RuleCode,
  type Rules,
  ruleCode,
} from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';
import { randomPlayout } from './playout.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, TO_MOVE, finalScores, legalMask, nthAction, playInPlace } =
  core;

export interface MctsAgentOptions {
  /** Iterations (selection, expansion, playout, backup) per move. */
  readonly iterations: number;
  readonly rules: Rules;
  /** The UCT exploration constant c in mean + c * sqrt(ln N / n); default sqrt(2). */
  readonly exploration?: number;
  readonly name?: string;
}

const UNKNOWN = 0xff;

/**
 * Monte Carlo tree search with UCT selection and uniformly random playouts on the
 * engine's fast path. The tree lives in typed arrays sized for one move's
 * iterations (one node is added per iteration) and reused from move to move.
 * It plays the root action visited most, ties at random.
 */
export class MctsAgent implements Agent {
  readonly name: string;
  readonly #iterations: number;
  readonly #exploration: number;
  readonly #states: Uint8Array;
  readonly #parent: Int32Array;
  /** children[node * 6 + a]: the node reached by action a, or 0 (node 0 is the root). */
  readonly #children: Int32Array;
  /** Legal actions of a node (UNKNOWN until the node is first selected). */
  readonly #legal: Uint8Array;
  /** Legal actions not expanded yet. */
  readonly #untried: Uint8Array;
  readonly #visits: Float64Array;
  /** Sum of results for the player who moved into the node (win 1, draw 1/2). */
  readonly #wins: Float64Array;
  readonly #playout = new Uint8Array(STATE_SIZE);
  readonly #scores = new Int32Array(2);
  #size = 0;

  constructor(options: MctsAgentOptions) {
    const { iterations } = options;
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > 10_000_000) {
      throw new RangeError(`mcts iterations must be an integer in 1..10000000, got ${iterations}`);
    }
    this.#iterations = iterations;
    this.#exploration = options.exploration ?? Math.SQRT2;
    const capacity = iterations + 1;
    this.#states = new Uint8Array(capacity * STATE_SIZE);
    this.#parent = new Int32Array(capacity);
    this.#children = new Int32Array(capacity * ACTIONS);
    this.#legal = new Uint8Array(capacity);
    this.#untried = new Uint8Array(capacity);
    this.#visits = new Float64Array(capacity);
    this.#wins = new Float64Array(capacity);
    this.name = options.name ?? `mcts:${iterations}`;
  }

  act(position: Position, ctx: AgentContext): number {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    const code = ruleCode(ctx.rules);
    this.#size = 0;
    this.#playout.set(position.stateView);
    this.#addNode(-1, this.#playout, -1, code);
    for (let i = 0; i < this.#iterations; i++) this.#iterate(ctx.rng, code);
    return this.#mostVisited(ctx.rng);
  }

  /** Adds the node reached from `state` by `action` (or `state` itself for action -1). */
  #addNode(parent: number, state: Uint8Array, action: number, code: RuleCode): number {
    const node = this.#size++;
    if (action >= 0) playInPlace(state, action, code);
    this.#states.set(state, node * STATE_SIZE);
    this.#parent[node] = parent;
    this.#children.fill(0, node * ACTIONS, (node + 1) * ACTIONS);
    this.#legal[node] = UNKNOWN;
    this.#visits[node] = 0;
    this.#wins[node] = 0;
    return node;
  }

  /** Copies a node's state into `dst` (copying avoids allocating a view per use). */
  #load(node: number, dst: Uint8Array): Uint8Array {
    const states = this.#states;
    for (let i = 0, k = node * STATE_SIZE; i < STATE_SIZE; i++, k++) dst[i] = states[k] as number;
    return dst;
  }

  #iterate(rng: Random, code: RuleCode): void {
    // Selection down to a node with an untried action (expanded) or a finished game.
    const playout = this.#playout;
    let node = 0;
    for (;;) {
      if (this.#legal[node] === UNKNOWN) {
        const mask = legalMask(this.#load(node, playout), code);
        this.#legal[node] = mask;
        this.#untried[node] = mask;
      }
      const untried = this.#untried[node] as number;
      if (untried !== 0) {
        const action = nthAction(untried, rng.int(POPCOUNT[untried] as number));
        this.#untried[node] = untried & ~(1 << action);
        const child = this.#addNode(node, this.#load(node, playout), action, code);
        this.#children[node * ACTIONS + action] = child;
        node = child;
        break;
      }
      if (this.#legal[node] === 0) break;
      node = this.#selectChild(node);
    }

    // Playout (a finished game plays zero plies) and the result for player 0.
    this.#load(node, playout);
    randomPlayout(playout, rng, code);
    const scores = this.#scores;
    finalScores(playout, 0, code, scores);
    const s0 = scores[0] as number;
    const s1 = scores[1] as number;
    const result0 = s0 > s1 ? 1 : s0 < s1 ? 0 : 0.5;

    for (let n = node; n >= 0; n = this.#parent[n] as number) {
      const mover = 1 - (this.#states[n * STATE_SIZE + TO_MOVE] as number);
      this.#visits[n] = (this.#visits[n] as number) + 1;
      this.#wins[n] = (this.#wins[n] as number) + (mover === 0 ? result0 : 1 - result0);
    }
  }

  #selectChild(node: number): number {
    const logN = Math.log(this.#visits[node] as number);
    const mask = this.#legal[node] as number;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const child = this.#children[node * ACTIONS + a] as number;
      const n = this.#visits[child] as number;
      const score = (this.#wins[child] as number) / n + this.#exploration * Math.sqrt(logN / n);
      if (score > bestScore) {
        bestScore = score;
        best = child;
      }
    }
    return best;
  }

  #mostVisited(rng: Random): number {
    let most = -1;
    const tied: number[] = [];
    for (let a = 0; a < ACTIONS; a++) {
      const child = this.#children[a] as number;
      if (child === 0) continue;
      const n = this.#visits[child] as number;
      if (n > most) {
        most = n;
        tied.length = 0;
      }
      if (n === most) tied.push(a);
    }
    return rng.pick(tied);
  }
}
