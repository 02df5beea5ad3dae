/*
 * Adam's step and the clipping's sum of squares on float32, as
 * WebAssembly: each operation rounds as tfjs's wasm kernels round it
 * (+, *, / and sqrt are IEEE's, in float32 lanes or scalars; WebAssembly
 * has no fused multiply-add to contract into), so the results are tfjs's
 * wasm Adam's to the bit. Built by `npm run build:adam-kernel`
 * (scripts/adam-kernel.ts) into adam-wasm.ts.
 */
#include <wasm_simd128.h>

/* g[0]^2 + g[1]^2 + ... summed from the first float to the last, as tf.sum(tf.square(g)). */
__attribute__((export_name("sum_squares")))
float sum_squares(const float *g, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; i++) sum += g[i] * g[i];
  return sum;
}

/*
 * One step over n floats of the weights w and moments m, v, with gradients
 * g: tfjs-core's AdamOptimizer.applyGradients, its gradients first scaled by
 * `scale` (the clipping), `step` the negated learning rate and c1, c2 one
 * minus beta1^t and beta2^t.
 */
__attribute__((export_name("adam")))
void adam(float *w, float *m, float *v, const float *g, int n, float scale, float b1, float b2,
          float o1, float o2, float eps, float step, float c1, float c2) {
  int i = 0;
  const v128_t S = wasm_f32x4_splat(scale), B1 = wasm_f32x4_splat(b1), B2 = wasm_f32x4_splat(b2),
               O1 = wasm_f32x4_splat(o1), O2 = wasm_f32x4_splat(o2), E = wasm_f32x4_splat(eps),
               T = wasm_f32x4_splat(step), C1 = wasm_f32x4_splat(c1), C2 = wasm_f32x4_splat(c2);
  for (; i + 4 <= n; i += 4) {
    v128_t gi = wasm_f32x4_mul(wasm_v128_load(g + i), S);
    v128_t mi = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(m + i), B1), wasm_f32x4_mul(gi, O1));
    v128_t vi = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(v + i), B2),
                               wasm_f32x4_mul(wasm_f32x4_mul(gi, gi), O2));
    wasm_v128_store(m + i, mi);
    wasm_v128_store(v + i, vi);
    v128_t mh = wasm_f32x4_div(mi, C1), vh = wasm_f32x4_div(vi, C2);
    v128_t d = wasm_f32x4_div(mh, wasm_f32x4_add(wasm_f32x4_sqrt(vh), E));
    wasm_v128_store(w + i, wasm_f32x4_add(wasm_f32x4_mul(d, T), wasm_v128_load(w + i)));
  }
  for (; i < n; i++) {
    float gi = g[i] * scale;
    float mi = m[i] * b1 + gi * o1;
    float vi = v[i] * b2 + (gi * gi) * o2;
    m[i] = mi;
    v[i] = vi;
    float mh = mi / c1, vh = vi / c2;
    w[i] = (mh / (__builtin_sqrtf(vh) + eps)) * step + w[i];
  }
}
