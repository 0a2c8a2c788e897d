package gltf

import (
	"math"
	"strconv"
)

// Short32 returns the float64 whose shortest decimal form is the shortest
// decimal that reads back as float32(v): float32(0.015) is written 0.015
// instead of 0.014999999664723873. Every number bake writes into the
// glTF JSON is a float32 (the precision every output carries), so a
// reader that rounds to float32, as glTF clients do, gets exactly the
// value the binary data would hold, in about half the characters. Values
// outside float32's range, and any decimal whose float64 reading would
// not round back (a double-rounding corner), keep float64(float32(v)).
func Short32(v float64) float64 {
	f := float32(v)
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return float64(f)
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil || float32(r) != f {
		return float64(f)
	}
	return r
}

// short32s applies Short32 to every value, in a new slice.
func short32s(values []float64) []float64 {
	out := make([]float64, len(values))
	for i, v := range values {
		out[i] = Short32(v)
	}
	return out
}

// short32In applies Short32 to every value in place.
func short32In(values []float64) {
	for i, v := range values {
		values[i] = Short32(v)
	}
}
