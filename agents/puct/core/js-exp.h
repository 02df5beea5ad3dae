/*
 * JavaScript's Math.exp in C, to the bit: V8 computes it with fdlibm's
 * __ieee754_exp (src/base/ieee754.cc, from FreeBSD's e_exp.c), ported here
 * line for line, so that the core's softmax of the network's logits gives
 * models/softmax.ts's floats (a test checks it against Math.exp).
 */
#ifndef AYOAYO_JS_EXP_H
#define AYOAYO_JS_EXP_H
#include <stdint.h>

static inline uint32_t high_word(double x) {
  uint64_t bits;
  __builtin_memcpy(&bits, &x, 8);
  return (uint32_t)(bits >> 32);
}

static inline uint32_t low_word(double x) {
  uint64_t bits;
  __builtin_memcpy(&bits, &x, 8);
  return (uint32_t)bits;
}

static inline double from_words(uint32_t high, uint32_t low) {
  uint64_t bits = ((uint64_t)high << 32) | low;
  double x;
  __builtin_memcpy(&x, &bits, 8);
  return x;
}

static double js_exp(double x) {
  static const double one = 1.0, half[2] = {0.5, -0.5}, o_threshold = 7.09782712893383973096e+02,
                      u_threshold = -7.45133219101941108420e+02,
                      ln2_hi[2] = {6.93147180369123816490e-01, -6.93147180369123816490e-01},
                      ln2_lo[2] = {1.90821492927058770002e-10, -1.90821492927058770002e-10},
                      inv_ln2 = 1.44269504088896338700e+00, P1 = 1.66666666666666019037e-01,
                      P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05,
                      P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08,
                      E = 2.718281828459045, huge = 1.0e+300,
                      twom1000 = 9.33263618503218878990e-302, two1023 = 8.988465674311579539e307;
  double y, hi = 0.0, lo = 0.0, c, t, twopk;
  int32_t k = 0;
  uint32_t hx = high_word(x);
  int xsb = (hx >> 31) & 1;
  hx &= 0x7FFFFFFF;
  /* Overflow, underflow, NaN and infinities. */
  if (hx >= 0x40862E42) {
    if (hx >= 0x7FF00000) {
      if (((hx & 0xFFFFF) | low_word(x)) != 0) return x + x;
      return xsb == 0 ? x : 0.0;
    }
    if (x > o_threshold) return huge * huge;
    if (x < u_threshold) return twom1000 * twom1000;
  }
  /* Argument reduction: x = k ln2 + r, |r| <= ln2 / 2. */
  if (hx > 0x3FD62E42) {
    if (hx < 0x3FF0A2B2) {
      if (x == 1.0) return E;
      hi = x - ln2_hi[xsb];
      lo = ln2_lo[xsb];
      k = 1 - xsb - xsb;
    } else {
      k = (int32_t)(inv_ln2 * x + half[xsb]);
      t = k;
      hi = x - t * ln2_hi[0];
      lo = t * ln2_lo[0];
    }
    x = hi - lo;
  } else if (hx < 0x3E300000) {
    if (huge + x > one) return one + x;
  } else {
    k = 0;
  }
  t = x * x;
  if (k >= -1021) {
    twopk = from_words(0x3FF00000 + ((uint32_t)k << 20), 0);
  } else {
    twopk = from_words(0x3FF00000 + ((uint32_t)(k + 1000) << 20), 0);
  }
  c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return one - ((x * c) / (c - 2.0) - x);
  y = one - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * two1023;
    return y * twopk;
  }
  return y * twopk * twom1000;
}

#endif
