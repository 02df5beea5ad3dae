import type { TrainConfig } from '../settings/schema.ts';
import type { AlgorithmDescriptor } from './descriptor.ts';

/**
 * The training algorithms a run may name, in the order registered: the
 * first name of the first is the default. The registry holds none of its
 * own: the built-in ones are registered by train/builtin-algorithms.ts, which
 * the entry points call, and anyone may add one. The config builder, the
 * flags, the learner, the queue and the CLI find an algorithm here by its
 * name, and know none.
 */
const registered: AlgorithmDescriptor[] = [];
const listeners: ((descriptor: AlgorithmDescriptor) => void)[] = [];

/**
 * Where a worker thread finds a registration to make again: the URL of the
 * module and the name of the function it exports (called with no argument).
 */
export interface AlgorithmSource {
  readonly module: string;
  readonly register: string;
}
const sources: AlgorithmSource[] = [];

/**
 * Adds an algorithm (made with defineAlgorithm): its names, block, flags and
 * presets must be new. Code that keeps something of every algorithm (the
 * presets) hears of it through `onRegistered`. `source`: the function that
 * registers it, for worker threads that play its shards to call too.
 */
export function registerAlgorithm(descriptor: AlgorithmDescriptor, source?: AlgorithmSource): void {
  if (source !== undefined && !sources.some((s) => sameSource(s, source))) sources.push(source);
  for (const name of Object.keys(descriptor.names)) {
    if (algorithmNamed(name) !== undefined) {
      throw new Error(`the training algorithm ${name} is registered already`);
    }
  }
  if (registered.some((d) => d.block === descriptor.block)) {
    throw new Error(`the settings block ${descriptor.block} is another algorithm's already`);
  }
  registered.push(descriptor);
  for (const listener of listeners) listener(descriptor);
}

/** Calls `listener` with every algorithm registered, now and later. */
export function onRegistered(listener: (descriptor: AlgorithmDescriptor) => void): void {
  for (const descriptor of registered) listener(descriptor);
  listeners.push(listener);
}

/** Every algorithm, in the order registered. */
export function algorithms(): readonly AlgorithmDescriptor[] {
  return registered;
}

/** Every `--algorithm` name, in the order registered. */
export function algorithmNames(): string[] {
  return registered.flatMap((d) => Object.keys(d.names));
}

/** The algorithm that trains runs named `name`, if any. */
export function algorithmNamed(name: string): AlgorithmDescriptor | undefined {
  return registered.find((d) => Object.hasOwn(d.names, name));
}

/** The algorithm of a validated config (its name is a registered one). */
export function algorithmOf(config: Pick<TrainConfig, 'algorithm'>): AlgorithmDescriptor {
  const descriptor = algorithmNamed(config.algorithm);
  if (descriptor === undefined) {
    throw new Error(`no training algorithm is registered as ${config.algorithm}`);
  }
  return descriptor;
}

/** The algorithm of a run that names none. */
export function defaultAlgorithm(): string {
  return algorithmNames()[0] as string;
}

/**
 * Why a run of `algorithm` cannot have its self-play played by other
 * machines (the queue), naming those whose self-play can.
 */
export function noShardsMessage(algorithm: string): string {
  const sharded = registered.filter((d) => d.shards !== null).map((d) => d.title);
  const why = algorithmOf({ algorithm }).whyNoShards;
  return `only ${sharded.join(' or ')}'s self-play is played in shards that other machines can take (the queue); ${algorithm}'s ${why}: train it without --queue, or spread whole runs with sweep --queue`;
}

const sameSource = (a: AlgorithmSource, b: AlgorithmSource): boolean =>
  a.module === b.module && a.register === b.register;

/** The registrations made in this thread with a source, for worker threads to make again. */
export function algorithmSources(): AlgorithmSource[] {
  return sources.map((s) => ({ ...s }));
}

/**
 * Makes the registrations `given` in this thread (a worker thread's, from the
 * thread that started it): each source once.
 */
export async function registerAlgorithmSources(given: readonly AlgorithmSource[]): Promise<void> {
  for (const source of given) {
    if (sources.some((s) => sameSource(s, source))) continue;
    const module = (await import(source.module)) as Record<string, unknown>;
    const register = module[source.register];
    if (typeof register !== 'function') {
      throw new Error(
        `${source.module} has no function ${source.register} to register algorithms with`,
      );
    }
    register();
    if (!sources.some((s) => sameSource(s, source))) sources.push(source);
  }
}
