// Package coretest has test helpers shared by every package's tests:
// reproducible random sources and structural checks on intervals.
package coretest

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// SeedEnv names the environment variable that overrides random test seeds.
const SeedEnv = "TRACETUI_SEED"

// Rand returns a random source for a property test. The seed comes from
// $TRACETUI_SEED when set, else from the clock; it is always logged so a
// failure can be replayed with TRACETUI_SEED=<seed> go test -run <test>.
func Rand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := uint64(rand.Int64())
	if s := os.Getenv(SeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", SeedEnv, s, err)
		}
		seed = v
	}
	t.Logf("seed=%d (replay with %s=%d)", seed, SeedEnv, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// CheckTiling fails t unless, for every key in 0..keys-1, the intervals of
// that key cover [start, end] exactly: sorted by start, the first starts at
// start, each next one starts one ns after the previous ends, the last ends
// at end. ivs may be in any order.
func CheckTiling(t testing.TB, ivs []core.Interval, keys int, start, end core.Time) {
	t.Helper()
	sorted := append([]core.Interval(nil), ivs...)
	core.SortIntervals(sorted)
	next := make([]core.Time, keys) // next expected start per key
	seen := make([]bool, keys)
	for i := range next {
		next[i] = start
	}
	for _, iv := range sorted {
		if iv.Key < 0 || int(iv.Key) >= keys {
			t.Fatalf("interval %v: key outside 0..%d", iv, keys-1)
		}
		if iv.End < iv.Start {
			t.Fatalf("interval %v ends before it starts", iv)
		}
		if iv.Start != next[iv.Key] {
			t.Fatalf("key %d: interval %v starts at %d, want %d (gap or overlap)", iv.Key, iv, iv.Start, next[iv.Key])
		}
		next[iv.Key] = iv.End + 1
		seen[iv.Key] = true
	}
	for k := range keys {
		if !seen[k] || next[k] != end+1 {
			t.Fatalf("key %d: covered up to %d, want %d", k, next[k]-1, end)
		}
	}
}
