/**
 * What a thread of the pool runs: a job names its handler by its module's
 * URL and its export, so that the layer that owns a job registers it by
 * declaring it (threadJob), and the pool, low in the layers, imports none of
 * them. A handler takes the job's input and a `count` to call for each thing
 * it finishes (games, positions, leaves), and returns the job's output; both
 * cross threads by structured clone.
 */

/** A function a thread calls, by its module's URL and its export's name. */
export interface ThreadCall {
  readonly module: string;
  readonly name: string;
}

/** A job's handler: its input and a counter of things done, to its output. */
export type ThreadHandler<I, O> = (input: I, count: () => void) => O | Promise<O>;

/** A kind of job of the pool: its handler, and (for the type checker only) its input and output. */
export interface ThreadJob<I, O> extends ThreadCall {
  readonly handler?: ThreadHandler<I, O>;
}

/**
 * The job whose handler is `handler`, exported under its own name by the
 * module at `module` (the declaring module's `import.meta.url`).
 */
export function threadJob<I, O>(module: string, handler: ThreadHandler<I, O>): ThreadJob<I, O> {
  return { module, name: handler.name };
}
