package aggregate

import (
	"math"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

func TestLog2MatchesMath(t *testing.T) {
	r := coretest.Rand(t)
	check := func(x float64) {
		got, want := log2(x), math.Log2(x)
		if got == want || (math.IsNaN(got) && math.IsNaN(want)) {
			return
		}
		if d := math.Abs(got - want); d > 1e-15*math.Max(1, math.Abs(want)) {
			t.Fatalf("log2(%g) = %.17g, math.Log2 %.17g (diff %g)", x, got, want, d)
		}
	}
	for _, x := range []float64{0, -1, 1, 2, 0.5, 1 + 1.0/256, 2 - 1e-16, 1e-310, math.Inf(1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64} {
		check(x)
	}
	for range 200000 {
		check(math.Ldexp(1+r.Float64(), r.IntN(200)-100))
		check(r.Float64() * 100)
	}
}

func BenchmarkLog2(b *testing.B) {
	x, s := 1.2345, 0.0
	for range b.N {
		s += log2(x)
		x += 0.001
	}
	_ = s
}

func BenchmarkMathLog2(b *testing.B) {
	x, s := 1.2345, 0.0
	for range b.N {
		s += math.Log2(x)
		x += 0.001
	}
	_ = s
}
