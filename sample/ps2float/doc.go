// Package ps2float emulates the PlayStation 2 Emotion Engine's single
// precision arithmetic (the EE FPU, COP1, and VU0 in macro mode) on raw
// 32-bit patterns, as ps2-ee-float.md describes it.
//
// The EE is not IEEE 754: an exponent field of 0 always reads as zero,
// exponent 255 is an ordinary binade (no Inf or NaN, largest magnitude
// 0x7FFFFFFF), additions keep one guard bit and truncate, multiplications
// truncate a product whose low bits come from a lossy Booth array (so
// fs × ft is not always ft × fs), and division and square root run a
// radix-2 SRT iteration. ccAnm's positions, scales, transparencies and
// texture offsets are accumulated with these rules, so a converter that
// wants the game's bits must use them too.
//
// Every value is a uint32 bit pattern. Nothing here goes through Go's
// float32 arithmetic, which rounds to nearest and cannot hold the
// exponent-255 binade. Operand order matters for Mul, Madd and Msub: fs
// is the multiplicand, ft the Booth-recoded multiplier, as in
// "mul.s fd, fs, ft".
package ps2float
