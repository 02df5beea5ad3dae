import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import { CheckpointError } from '../../models/errors.ts';
import { adamPowers } from '../gradients/float-adam.ts';
import { loadTensorData, type SavedTensor, saveTensor } from './checkpoint.ts';

/** Layer names of the policy-value network, in a fixed order (see models/policy-value-model.ts). */
function layerNames(model: tfType.LayersModel): string[] {
  return model.layers.filter((l) => l.getWeights().length === 2).map((l) => l.name);
}

/** The model's weights as `layer/kernel`, `layer/bias` tensors, independent of tfjs' variable naming. */
export function saveModelWeights(model: tfType.LayersModel): SavedTensor[] {
  const out: SavedTensor[] = [];
  for (const name of layerNames(model)) {
    const [kernel, bias] = model.getLayer(name).getWeights() as [tfType.Tensor, tfType.Tensor];
    out.push(saveTensor(`${name}/kernel`, kernel.shape, kernel.dataSync() as Float32Array));
    out.push(saveTensor(`${name}/bias`, bias.shape, bias.dataSync() as Float32Array));
  }
  return out;
}

export function restoreModelWeights(
  tf: Tf,
  model: tfType.LayersModel,
  saved: readonly SavedTensor[],
  where: string,
): void {
  const byName = new Map(saved.map((t) => [t.name, t]));
  for (const name of layerNames(model)) {
    const layer = model.getLayer(name);
    const current = layer.getWeights();
    const tensors = ['kernel', 'bias'].map((part, i) => {
      const t = byName.get(`${name}/${part}`);
      const expected = (current[i] as tfType.Tensor).shape;
      if (t === undefined)
        throw new CheckpointError(`${where} is incompatible: no weights for ${name}/${part}`);
      if (t.shape.join('x') !== expected.join('x')) {
        throw new CheckpointError(
          `${where} is incompatible: ${name}/${part} has shape [${t.shape}], the model needs [${expected}]`,
        );
      }
      return tf.tensor(loadTensorData(t, where), t.shape);
    });
    layer.setWeights(tensors);
    for (const t of tensors) t.dispose();
  }
}

/**
 * tfjs names variables uniquely per process (`value/bias_1` for the second
 * model made), so optimizer slots are saved under the layer-based names used
 * for the weights, and mapped back onto whatever the current model calls them.
 */
function variableNames(model: tfType.LayersModel): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of layerNames(model)) {
    const layer = model.getLayer(name);
    layer.trainableWeights.forEach((w, i) => {
      out.set((w.read() as tfType.Variable).name, `${name}/${i === 0 ? 'kernel' : 'bias'}`);
    });
  }
  return out;
}

function renameSlot(slot: string, names: Map<string, string>): string {
  for (const [from, to] of names) {
    if (slot.startsWith(`${from}/`)) return `${to}${slot.slice(from.length)}`;
  }
  return slot;
}

/** Saved beside the moments: tfjs's setWeights() would recompute them with pow(), a few bits off. */
const POWERS = ['accBeta1', 'accBeta2'] as const;
const powerName = (key: (typeof POWERS)[number]) => `adam/${key}`;

/** Adam's state (step count, moments and bias-correction powers), so a resumed run continues exactly. */
export async function saveOptimizer(
  optimizer: tfType.Optimizer,
  model: tfType.LayersModel,
): Promise<SavedTensor[]> {
  const names = variableNames(model);
  const named = await optimizer.getWeights();
  const saved = named.map(({ name, tensor }) =>
    saveTensor(renameSlot(name, names), tensor.shape, Float32Array.from(tensor.dataSync())),
  );
  const powers = adamPowers(optimizer);
  for (const key of POWERS) {
    const power = powers?.[key];
    if (power !== undefined)
      saved.push(saveTensor(powerName(key), power.shape, Float32Array.from(power.dataSync())));
  }
  return saved;
}

export async function restoreOptimizer(
  tf: Tf,
  optimizer: tfType.Optimizer,
  model: tfType.LayersModel,
  saved: readonly SavedTensor[],
  where = 'checkpoint',
): Promise<void> {
  const powerNames = new Set<string>(POWERS.map(powerName));
  const slots = saved.filter((t) => !powerNames.has(t.name));
  if (slots.length === 0) return;
  const back = new Map(
    [...variableNames(model)].map(([current, canonical]) => [canonical, current]),
  );
  const named = slots.map((t) => ({
    name: renameSlot(t.name, back),
    tensor: tf.tensor(loadTensorData(t, where), t.shape),
  }));
  await optimizer.setWeights(named);
  for (const { tensor } of named) tensor.dispose();
  const powers = adamPowers(optimizer);
  for (const key of POWERS) {
    const t = saved.find((s) => s.name === powerName(key));
    const power = powers?.[key];
    // Checkpoints written before the powers were saved keep tfjs' recomputed value.
    if (t === undefined || power === undefined) continue;
    const value = tf.tensor(loadTensorData(t, where), t.shape);
    power.assign(value);
    value.dispose();
  }
}
