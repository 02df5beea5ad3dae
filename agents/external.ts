import type { Position } from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';
import { EngineProcess } from './engine-process.ts';
import { ForfeitError } from './forfeit.ts';
import { engineRequest, parseAnswer } from './protocol.ts';

/** Default time an external engine has for one move. */
export const DEFAULT_MOVE_TIMEOUT_MS = 5000;
/** Extra time for the first move after an engine starts (interpreters take a while to load). */
export const DEFAULT_STARTUP_MS = 5000;

export interface ExternalAgentOptions {
  /** Milliseconds per move before the engine forfeits (default 5000). */
  readonly moveTimeoutMs?: number;
  /** Extra milliseconds for the first move after the engine (re)starts (default 5000). */
  readonly startupMs?: number;
  readonly name?: string;
}

/**
 * An engine in any language, run as a shell command and spoken to over
 * stdin/stdout (protocol: ./protocol.ts). It is started on first use and kept
 * for many games; an engine that answers late, answers garbage or an illegal
 * action, or dies, forfeits the game (ForfeitError). The first move after a start
 * has `startupMs` more, since loading an interpreter is not thinking time. A killed or dead engine is
 * started again for the next move asked, so a tournament goes on.
 */
export class ExternalAgent implements Agent {
  readonly name: string;
  readonly command: string;
  readonly #timeoutMs: number;
  readonly #startupMs: number;
  #engine: EngineProcess | null = null;
  #fresh = false;

  constructor(command: string, options: ExternalAgentOptions = {}) {
    if (command.trim().length === 0)
      throw new Error('ext: needs a command, e.g. ext:python3 engine.py');
    const timeout = options.moveTimeoutMs ?? DEFAULT_MOVE_TIMEOUT_MS;
    if (!(Number.isFinite(timeout) && timeout > 0)) {
      throw new RangeError(
        `move timeout must be a positive number of milliseconds, got ${timeout}`,
      );
    }
    this.command = command;
    this.#timeoutMs = timeout;
    this.#startupMs = options.startupMs ?? DEFAULT_STARTUP_MS;
    this.name = options.name ?? `ext:${command}`;
  }

  async act(position: Position, ctx: AgentContext): Promise<number> {
    if (this.#engine === null || !this.#engine.alive) {
      this.#engine = new EngineProcess(this.command);
      this.#fresh = true;
    }
    const engine = this.#engine;
    const request = JSON.stringify(engineRequest(position, ctx.legal, ctx.rules));
    const limit = this.#timeoutMs + (this.#fresh ? this.#startupMs : 0);
    this.#fresh = false;
    const line = await engine.request(request, limit);
    const answer = parseAnswer(line);
    if ('error' in answer) {
      // An engine that talks nonsense is restarted rather than trusted again.
      engine.kill();
      throw new ForfeitError(answer.error);
    }
    if (!ctx.legal.includes(answer.action)) {
      throw new ForfeitError(
        `answered illegal action ${answer.action}; legal actions: ${ctx.legal.join(', ')}`,
      );
    }
    return answer.action;
  }

  async close(): Promise<void> {
    const engine = this.#engine;
    this.#engine = null;
    await engine?.close();
  }
}
